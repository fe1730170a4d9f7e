import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Caller } from "./caller.ts";
import { refusal } from "./tool-result.ts";
import type { ToolSpec } from "./tools/tool.ts";

/**
 * Whether this caller may run this tool, decided where the tool runs (server.ts, once per call),
 * whatever envelope brought the call: a person tool never for an API key, the tool's scope in the
 * credential's grant, and a tenant tool only in the tenant the credential is bound to (the API
 * key's, or the one chosen at OAuth consent). A JSON-RPC batch once skipped the door's check,
 * which read the body's shape (issue 20); the door still answers a single call's missing scope
 * with HTTP 403 first (app.ts), so that clients step up. Returns the refusal, or undefined.
 */
export function authorizeCall(tool: ToolSpec, caller: Caller): CallToolResult | undefined {
  if (tool.person && caller.identity.kind === "api_key") {
    return refusal("API_KEY_NOT_ALLOWED", `${tool.name} acts for a signed-in person; an API key never does.`);
  }
  if (!caller.grant.scopes.has(tool.scope)) {
    caller.challenge = { status: 403, scope: tool.scope };
    return refusal(
      "INSUFFICIENT_SCOPE",
      `${tool.name} needs the ${tool.scope} scope, which this authorization does not have: authorize this client again with it.`,
    );
  }
  if (tool.person) return undefined;
  if (!caller.tenantId) {
    return refusal(
      "TENANT_REQUIRED",
      "This tool acts in a tenant: connect to /mcp/tenants/{tenant_id}, or use a tenant API key.",
    );
  }
  // Any tenant but the credential's looks missing, as REST answers a tenant the caller cannot see.
  if (caller.tenantId !== caller.grant.tenantId) return refusal("NOT_FOUND", "tenant was not found");
  return undefined;
}
