import type { OAuthScope } from "@flowstate/contracts/rest/identity/oauth";
import type { AuthorizationRequest } from "../db/entities.ts";
import { grantableScopes, needsTenant, SCOPE_DESCRIPTIONS } from "../scopes.ts";
import { errorNotice, esc, page } from "./layout.ts";
import { clientSummary } from "./signin-page.ts";

export interface TenantChoice {
  id: string;
  name: string;
  role: string;
}

/**
 * Step 2: consent. Names the client, each scope with what it allows, and the tenant the tokens
 * will act in (a select when the scopes need one). A person with no tenant is offered what needs
 * none (`account`) and told what was left out and why; with nothing left to give, no Allow. Allow
 * and Deny are both plain submit buttons of one form; nothing happens without a click (no
 * auto-submit, no script).
 */
export function consentPage(o: {
  request: AuthorizationRequest;
  interaction: string;
  csrf: string;
  email: string;
  tenants: TenantChoice[];
  error?: string;
}): string {
  const { granted, leftOut } = grantableScopes(o.request.scopes as OAuthScope[], o.tenants.length > 0);
  const items = granted.map((s) => `<li><strong>${esc(s)}</strong>: ${esc(SCOPE_DESCRIPTIONS[s])}</li>`).join("\n");
  let tenant = "";
  if (needsTenant(granted)) {
    tenant = `<label for="tenant_id">Tenant it acts in</label>
<select id="tenant_id" name="tenant_id" required${o.error ? ' aria-describedby="consent-error"' : ""}>
${o.tenants.map((t) => `<option value="${esc(t.id)}">${esc(t.name)} (${esc(t.role)})</option>`).join("\n")}
</select>`;
  } else if (leftOut.length) {
    // Said before the buttons, so a screen reader reaches it before deciding.
    const names = leftOut.map((s) => `<strong>${esc(s)}</strong>`).join(", ");
    tenant = granted.length
      ? `<p id="left-out" class="note" role="note">Left out: ${names}. You are not a member of any tenant, and marketplace access acts in one. Create a tenant or accept an invitation, then authorize ${esc(o.request.client_name)} again to add it.</p>`
      : `<p id="left-out" class="error" role="alert">You are not a member of any tenant, so the marketplace access asked for (${names}) cannot be given. Deny, or create a tenant first.</p>`;
  }
  const canAllow = granted.length > 0;
  return page(
    "Allow access?",
    `${clientSummary(o.request)}
<p>Signed in as <strong>${esc(o.email)}</strong>.</p>
${errorNotice("consent-error", o.error)}
<form method="post" action="/oauth/authorize/consent">
<input type="hidden" name="interaction" value="${esc(o.interaction)}">
<input type="hidden" name="csrf" value="${esc(o.csrf)}">
<fieldset><legend>${esc(o.request.client_name)} will be able to</legend>
<ul>
${items || "<li>nothing that can be given</li>"}
</ul></fieldset>
${tenant}
<div class="actions">
${canAllow ? '<button class="primary" type="submit" name="decision" value="allow">Allow</button>' : ""}
<button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="note">You can revoke this access at any time (GET and DELETE /v1/users/me/authorized-clients).</p>`,
  );
}
