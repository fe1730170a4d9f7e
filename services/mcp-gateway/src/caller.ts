import type { CallerIdentity } from "@flowstate/edge-gateway/pipeline";
import type { AuditSink } from "./audit.ts";
import type { Grant } from "./grant.ts";
import type { Scope } from "./tools/tool.ts";

/** Who is calling this one HTTP request, as the HTTP layer (app.ts) established it. */
export interface Caller {
  authorization: string;
  identity: CallerIdentity;
  /** What the credential allows: its scopes and the one tenant it may act in (grant.ts). */
  grant: Grant;
  /** The tenant this connection acts in (the path's, else the grant's); undefined: person tools only. */
  tenantId: string | undefined;
  requestId: string;
  /** `<prefix>-<stage>`: refusals by a seller's role name the full principal (tool-result.ts). */
  principalPrefix?: string | undefined;
  /** The caller's address as the MCP door sees it (the pipeline's per-client rate limit). */
  address: string;
  /** Where each tool call's audit event goes (audit.ts); none in tests that do not look. */
  audit?: AuditSink | undefined;
  /**
   * Set by a tool call whose refusal the HTTP answer must carry (app.ts replaces the result with
   * it): 403 `insufficient_scope` with the scope to step up to, or 401 `invalid_token` when the
   * pipeline refused the credential itself (revoked or expired since the door authenticated it).
   */
  challenge?: { status: 403; scope: Scope } | { status: 401; description: string } | undefined;
}
