import { OAUTH_SCOPES, type OAuthScope } from "@flowstate/contracts/rest/identity/oauth";

/** What each scope lets the client do, as the consent page says it. */
export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  "marketplace:read": "See the tenant's AWS Marketplace connection, private offers, agreements and currencies",
  "marketplace:write":
    "Connect or disconnect the marketplace connector and create, clone, release or expire private offers",
  account: "Export your personal data and delete your account",
};

/** Scopes that act in a tenant: asking for one makes the consent page ask which tenant. */
export const needsTenant = (scopes: readonly string[]) => scopes.some((s) => s.startsWith("marketplace:"));

/**
 * What a person can grant of `asked`: everything when they belong to a tenant; otherwise only the
 * scopes that act in no tenant (`account`). RFC 6749 section 3.3 lets the server issue fewer scopes
 * than asked; the token response's `scope` then says which (issue 20: a person with no tenant must
 * still be able to authorize a stock MCP client, which asks for every scope).
 */
export function grantableScopes<S extends string>(
  asked: readonly S[],
  hasTenant: boolean,
): { granted: S[]; leftOut: S[] } {
  if (hasTenant || !needsTenant(asked)) return { granted: [...asked], leftOut: [] };
  return {
    granted: asked.filter((s) => !needsTenant([s])),
    leftOut: asked.filter((s) => needsTenant([s])),
  };
}

/**
 * Parses a `scope` parameter into known scopes in a stable order. Absent → every scope (the page
 * lists them; clients without resource metadata send none). `offline_access` is accepted and
 * dropped: refresh tokens are always issued to these public clients. Anything else → null
 * (`invalid_scope`).
 */
export function parseScopes(scope: string | undefined): OAuthScope[] | null {
  if (scope === undefined) return [...OAUTH_SCOPES];
  const asked = new Set(scope.split(" ").filter((s) => s !== ""));
  asked.delete("offline_access");
  if ([...asked].some((s) => !(OAUTH_SCOPES as readonly string[]).includes(s))) return null;
  const scopes = OAUTH_SCOPES.filter((s) => asked.has(s));
  return scopes.length ? scopes : null;
}
