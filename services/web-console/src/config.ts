import { accessTokenEnv, serviceConfigSchema, sessionKeySecretId } from "@flowstate/shared/config/base";
import { z } from "zod";

const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/**
 * web-console's environment: where the public API is (the edge gateway, reached server-side), the
 * public origin browsers see (JWT_ISSUER: the gateway's origin, which serves the console at /app
 * and is the OAuth issuer), and the secret holding the key that seals tokens at rest.
 */
export const ConsoleConfig = serviceConfigSchema({
  service: "web-console",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("web_console"),
    /** The edge gateway as this process reaches it (npm start and compose set it). */
    EDGE_GATEWAY_URL: url,
    JWT_ISSUER: accessTokenEnv.JWT_ISSUER,
    /** The MCP server's public URL, for the account page's connect snippet (npm start sets MCP_GATEWAY_URL). */
    MCP_PUBLIC_URL: url.optional(),
    MCP_GATEWAY_URL: url.optional(),
    /** Secrets Manager id of the 256-bit key sealing session tokens (the bootstrap creates it). */
    SESSION_KEY_SECRET_ID: z.string().min(1).optional(),
    /** A console session ends this long after its sign-in, whatever its refreshes (identity's grant may live longer). */
    SESSION_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(12),
    /** The gateway's answers to this process: the longest wait. */
    API_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  },
}).transform((env) => ({
  ...env,
  SESSION_KEY_SECRET_ID: env.SESSION_KEY_SECRET_ID ?? sessionKeySecretId(env),
  MCP_PUBLIC_URL: env.MCP_PUBLIC_URL ?? env.MCP_GATEWAY_URL ?? env.JWT_ISSUER,
}));
export type ConsoleConfig = z.output<typeof ConsoleConfig>;
