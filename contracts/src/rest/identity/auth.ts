import { z } from "zod";
import { Sub } from "../../ids.ts";
import { Email, PersonName } from "./common.ts";

/**
 * Passwords: at least 10 characters (NIST SP 800-63B allows 8; we ask a little more), at most 256
 * so a multi-megabyte "password" cannot be used to burn hashing CPU. No composition rules.
 */
export const NewPassword = z.string().min(10).max(256);

export const SignUpRequest = z.strictObject({ email: Email, password: NewPassword, name: PersonName });
export type SignUpRequest = z.infer<typeof SignUpRequest>;
export const SignUpResponse = z.object({ sub: Sub });
export type SignUpResponse = z.infer<typeof SignUpResponse>;

/**
 * A device token (OWASP "device cookies"): handed out by every successful sign-in, bound to the
 * account. Presented with the next sign-in it takes this client out of the account's backoff, so a
 * stranger's wrong guesses cannot lock the owner out; the token then has a backoff of its own.
 */
export const DeviceToken = z.string().min(1).max(100);

/** Sign-in accepts any length up to the cap: an old password policy must not lock anyone out. */
export const SignInRequest = z.strictObject({
  email: Email,
  password: z.string().min(1).max(256),
  /** The `device_token` of this client's last successful sign-in to this account, if it kept one. */
  device_token: DeviceToken.optional(),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

export const RefreshRequest = z.strictObject({ refresh_token: z.string().min(1).max(200) });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("Bearer"),
  /** Lifetime of the access token in seconds (at most 900). */
  expires_in: z.number().int().positive().max(900),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** A sign-in's answer: the tokens and a fresh device token (the one presented, if any, is spent). */
export const SignInResponse = TokenResponse.extend({ device_token: DeviceToken });
export type SignInResponse = z.infer<typeof SignInResponse>;

/**
 * The browser sign-in page's device cookie (HttpOnly, Secure, SameSite=Strict, `__Host-`: no
 * Domain, Path=/). The edge gateway hands this one cookie, and no other, on to identity-svc.
 */
export const DEVICE_COOKIE = "__Host-flowstate-device";

/** One public signing key (RFC 7517 JWK, EC P-256 for ES256). */
export const PublicJwk = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  x: z.string(),
  y: z.string(),
  kid: z.string(),
  alg: z.literal("ES256"),
  use: z.literal("sig"),
});
export type PublicJwk = z.infer<typeof PublicJwk>;
export const Jwks = z.object({ keys: z.array(PublicJwk) });
export type Jwks = z.infer<typeof Jwks>;
