import { serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

/**
 * identity-svc's environment (the preamble's runtime contract plus its own variables), parsed once
 * at boot by main.ts.
 */
export const IdentityConfig = serviceConfigSchema({
  defaultPort: 8081,
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("identity"),
    /** PostgreSQL connections of this process (the pool queues the rest). */
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    SIGNING_KEYS_SECRET_ID: z.string().min(1).optional(),
    JWT_ISSUER: z.string().min(1).default("https://identity.flowstate.local"),
    JWT_AUDIENCE: z.string().min(1).default("flowstate-api"),
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
  },
}).transform((env) => ({
  ...env,
  SIGNING_KEYS_SECRET_ID: env.SIGNING_KEYS_SECRET_ID ?? `${env.SERVICE_PREFIX}/${env.STAGE}/identity/signing-keys`,
}));
export type IdentityConfig = z.output<typeof IdentityConfig>;
