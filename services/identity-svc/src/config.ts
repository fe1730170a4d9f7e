import { accessTokenEnv, derivedNames, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";
import { argon2ParamsVar, belowOwasp, DEFAULT_ARGON2 } from "./crypto/password.ts";

/**
 * identity-svc's environment (the shared variables of the README's "Configuration" table plus its own), parsed once
 * at boot by main.ts.
 */
export const IdentityConfig = serviceConfigSchema({
  service: "identity-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("identity"),
    /** PostgreSQL connections of this process (the pool queues the rest). */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    SIGNING_KEYS_SECRET_ID: z.string().min(1).optional(),
    /** The secret the sign-in throttle rows' address keys derive from; default `<prefix>/<stage>/identity/sign-in-throttle-key`. */
    SIGN_IN_THROTTLE_SECRET_ID: z.string().min(1).optional(),
    /**
     * The issuer of every token and of the OAuth authorization server's metadata: the edge
     * gateway's public origin (https in production; npm start sets the local gateway's URL), since
     * MCP clients fetch `<issuer>/.well-known/oauth-authorization-server` and compare `issuer`.
     */
    ...accessTokenEnv,
    /** The issue caps access tokens at 15 minutes. */
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(900).default(900),
    /** Absolute lifetime of a session (refresh-token family). */
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(30),
    /**
     * How long a new signing key is published before it signs. Must exceed KEYSET_RELOAD_SECONDS
     * plus the JWKS cache lifetime of every verifier (the JWKS answer says max-age=300).
     */
    KEY_ACTIVATION_DELAY_SECONDS: z.coerce.number().int().min(0).default(900),
    /** How often each replica re-reads the key set from Secrets Manager. */
    KEYSET_RELOAD_SECONDS: z.coerce.number().int().min(5).default(60),
    /** Rotate automatically when the signing key is older than this (0 turns automatic rotation off). */
    KEY_ROTATION_DAYS: z.coerce.number().int().min(0).default(30),
    /** Sign-in brute force (verbs/sign-in-throttle.ts): failures per e-mail address before the backoff starts. */
    SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    /** The first wait once it starts, doubled by each further failure. */
    SIGN_IN_BACKOFF_BASE_MS: z.coerce.number().int().min(100).default(1000),
    /** The longest wait. */
    SIGN_IN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
    /** Where mcp-gateway listens (npm start sets it): its `/mcp` is the default OAuth resource. */
    MCP_GATEWAY_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** RFC 7591 registrations allowed per client address in any hour (issue 20 finding 8). */
    OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
    /** Comma-separated canonical URIs OAuth tokens may be issued for (RFC 8707); default `<MCP_GATEWAY_URL>/mcp`. */
    OAUTH_RESOURCES: z.string().optional(),
    /**
     * Test seam, empty in production: comma-separated special-use addresses (e.g. 127.0.0.1) a
     * Client ID Metadata Document may still be fetched from. Trust a test CA with NODE_EXTRA_CA_CERTS.
     */
    OAUTH_CIMD_ALLOWED_ADDRESSES: z.string().optional(),
    /** Password hashing cost (crypto/password.ts); unset: OWASP's. Below OWASP's only under NODE_ENV=test. */
    ARGON2_PARAMS: argon2ParamsVar,
    NODE_ENV: z.string().optional(),
  },
})
  .refine((env) => !env.ARGON2_PARAMS || env.NODE_ENV === "test" || !belowOwasp(env.ARGON2_PARAMS), {
    path: ["ARGON2_PARAMS"],
    error: "is below OWASP's Argon2id minimum (e.g. m=19456,t=2,p=1); a lower cost is only for NODE_ENV=test",
  })
  .transform((env) => ({
    ...env,
    ARGON2_PARAMS: env.ARGON2_PARAMS ?? DEFAULT_ARGON2,
    SIGNING_KEYS_SECRET_ID: env.SIGNING_KEYS_SECRET_ID ?? derivedNames(env).signingKeysSecretId,
    SIGN_IN_THROTTLE_SECRET_ID: env.SIGN_IN_THROTTLE_SECRET_ID ?? derivedNames(env).signInThrottleSecretId,
    OAUTH_RESOURCES: list(
      env.OAUTH_RESOURCES ?? (env.MCP_GATEWAY_URL ? `${env.MCP_GATEWAY_URL.replace(/\/$/, "")}/mcp` : ""),
    ),
    OAUTH_CIMD_ALLOWED_ADDRESSES: list(env.OAUTH_CIMD_ALLOWED_ADDRESSES ?? ""),
  }));

function list(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}
export type IdentityConfig = z.output<typeof IdentityConfig>;
