import type { CallerIdentity } from "@flowstate/edge-gateway/pipeline";
import { decodeJwt } from "jose";
import type { Scope } from "./tools/tool.ts";

/**
 * What an authenticated credential may do over MCP: its scopes, and the one tenant it may act in.
 * An API key: its tenant, `marketplace:read` (+ `marketplace:write` for a write key), never
 * `account` (a key is not a person). An OAuth token: its `scope` claim and the `tenant_id` chosen
 * at consent (identity-svc sets it when a `marketplace:*` scope is granted); a token consented
 * with the `account` scope alone has no tenant and acts in none.
 */
export interface Grant {
  scopes: ReadonlySet<Scope>;
  tenantId: string | undefined;
}

/**
 * The grant of a credential the pipeline has just authenticated (so its claims are verified; they
 * are only decoded again here, the pipeline's identity carries `sub` and `sid` alone).
 *
 * @example
 * const identity = await gateway.authenticate(authorization);
 * grantOf(identity, authorization) // { scopes: Set {"marketplace:read"}, tenantId: "tnt_…" }
 */
export function grantOf(identity: CallerIdentity, authorization: string): Grant {
  if (identity.kind === "api_key") {
    return {
      scopes: new Set<Scope>(
        identity.scope === "write" ? ["marketplace:read", "marketplace:write"] : ["marketplace:read"],
      ),
      tenantId: identity.tenant_id,
    };
  }
  const claims = decodeJwt(authorization.replace(/^bearer\s+/i, ""));
  const tenantId = typeof claims.tenant_id === "string" ? claims.tenant_id : undefined;
  return { scopes: new Set(String(claims.scope ?? "").split(" ") as Scope[]), tenantId };
}
