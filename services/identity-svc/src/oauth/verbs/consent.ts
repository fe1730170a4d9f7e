import { TenantId } from "@flowstate/contracts/ids";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { randomSecret, sha256 } from "../../crypto/secret-token.ts";
import { User } from "../../db/entities.ts";
import { isFirstParty } from "../clients/first-party.ts";
import { OAuthCode } from "../db/entities.ts";
import { grantableScopes, needsTenant } from "../scopes.ts";
import { expiredInteraction, lockAccountOf, openInteraction } from "./interactions.ts";
import { clientRedirect } from "./redirect.ts";

/**
 * The consent step. Deny → `access_denied` back to the client. Allow → a code bound to the
 * client, redirect URI, PKCE challenge, resource, scopes, tenant, user and sign-in time, valid
 * `codeTtlMs`, stored as SHA-256 only; the interaction is consumed either way, so the form cannot be
 * posted twice. The tenant must be one the user is an active member of when the scopes need one
 * (re-checked here, not trusted from the page); the account must still be active. Someone with
 * no active tenant is granted only the scopes that need none (the code's `scope`, hence the
 * token's and the token response's, lists what was granted; RFC 6749 section 3.3).
 */
export async function consent({
  ctx,
  form,
}: {
  ctx: ServiceContext;
  form: Record<string, string>;
}): Promise<{ location: string }> {
  if (!form.interaction || !form.csrf || (form.decision !== "allow" && form.decision !== "deny"))
    throw expiredInteraction();
  const input = { interaction: form.interaction, csrf: form.csrf };
  return inTransaction(ctx, async (em) => {
    const account = await lockAccountOf(ctx, em, input.interaction);
    const row = await openInteraction(ctx, em, input);
    if (!row.sub || !row.auth_time) throw expiredInteraction(); // consent before sign-in
    if (row.sub !== account) throw expiredInteraction(); // signed in again meanwhile: not the locked account
    const { request } = row;
    const iss = ctx.deps.oauth.issuer;
    em.remove(row);
    if (form.decision === "deny")
      return {
        location: clientRedirect(request.redirect_uri, {
          error: "access_denied",
          error_description: "the user denied access",
          state: request.state,
          iss,
        }),
      };
    // A person with no active tenant grants what needs none (the page offered that much), never more.
    const tenants = await em.execute<{ n: number }[]>(
      `SELECT 1 AS n FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id
        WHERE m.sub = ? AND t.status = 'active' LIMIT 1`,
      [row.sub],
    );
    // The console's tokens are for the REST API, which checks the membership of every call's tenant
    // itself: it is bound to no tenant (the user switches tenants in the console; ADR 0015).
    const firstParty = isFirstParty(ctx.deps.oauth, request.client_id);
    const { granted } = grantableScopes(request.scopes, firstParty || tenants.length > 0);
    if (granted.length === 0) throw expiredInteraction(); // the page offered no Allow
    let tenantId: string | null = null;
    if (needsTenant(granted) && !firstParty) {
      const asked = TenantId.safeParse(form.tenant_id);
      const member =
        asked.success &&
        (
          await em.execute<{ n: number }[]>(
            `SELECT 1 AS n FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id
              WHERE m.sub = ? AND m.tenant_id = ? AND t.status = 'active'`,
            [row.sub, asked.data],
          )
        ).length > 0;
      // A missing or foreign tenant ends the interaction: the page only ever offered the user's own.
      if (!member) throw expiredInteraction();
      tenantId = asked.data!;
    }
    const user = await em.findOne(User, { sub: row.sub }, { refresh: true });
    if (user?.status !== "active" || user.disabled) throw expiredInteraction();
    const code = randomSecret();
    const at = now(ctx);
    em.create(OAuthCode, {
      code_hash: sha256(code),
      client_id: request.client_id,
      client_name: request.client_name,
      redirect_uri: request.redirect_uri,
      code_challenge: request.code_challenge,
      resource: request.resource,
      scope: granted.join(" "),
      tenant_id: tenantId,
      sub: row.sub,
      auth_time: row.auth_time,
      created_at: at,
      expires_at: new Date(at.getTime() + ctx.deps.oauth.codeTtlMs),
      used_at: null,
      sid: null,
    });
    return { location: clientRedirect(request.redirect_uri, { code, state: request.state, iss }) };
  });
}
