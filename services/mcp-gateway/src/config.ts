import { gatewayConfigSchema } from "@flowstate/edge-gateway/pipeline";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { z } from "zod";

/** What mcp-gateway adds to the edge gateway's environment. */
const McpExtras = z.object({
  /** The public origin MCP clients use; `<MCP_PUBLIC_URL>/mcp` is the OAuth resource (token audience). */
  MCP_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  /** Browser origins allowed to call (comma-separated); a request without Origin is not a browser's. */
  MCP_ALLOWED_ORIGINS: z.string().default(""),
  /**
   * The longest a tool call's audit record waits for a full PutEvents request (audit.ts). Longer
   * means fewer requests at low traffic and a later audit row; a stop sends what waits either way.
   */
  MCP_AUDIT_FLUSH_MS: z.coerce.number().int().min(1).max(3_600_000).default(200),
});

/**
 * mcp-gateway's environment: the edge gateway's own variables (it runs the same authentication,
 * tenant, flag, rate-limit and relay pipeline for every tool call, see pipeline.ts; PORT and
 * METRICS_PORT default to mcp-gateway's in the services catalog) plus where it is reached from outside.
 */
export function readMcpConfig(env: NodeJS.ProcessEnv = process.env) {
  const gateway = parseConfig(gatewayConfigSchema("mcp-gateway"), env);
  const extras = parseConfig(McpExtras, env);
  const origin = (extras.MCP_PUBLIC_URL ?? `http://127.0.0.1:${gateway.PORT}`).replace(/\/$/, "");
  return {
    gateway,
    publicUrl: origin,
    /** The canonical resource URI (RFC 8707/9728): tokens must carry it as `aud`. */
    resource: `${origin}/mcp`,
    allowedOrigins: extras.MCP_ALLOWED_ORIGINS.split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    auditFlushMs: extras.MCP_AUDIT_FLUSH_MS,
  };
}
export type McpConfig = ReturnType<typeof readMcpConfig>;
