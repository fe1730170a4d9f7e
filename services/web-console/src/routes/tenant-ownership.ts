import type { MemberList } from "@flowstate/contracts/rest/identity/members";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { pagePath } from "./marketplace-paths.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

async function ownershipPage(c: ConsoleContext, tenant: Tenant, problem?: ApiProblem, error?: string) {
  const members = await c.get("api")<MemberList>({ method: "GET", path: `/v1/tenants/${tenant.id}/members` });
  if (!members.ok) return renderProblem(c, members.problem, tenantView(c, tenant));
  const others = members.body.members.filter((m) => m.role !== "owner");
  return c.html(
    layout({
      title: "Ownership",
      signedIn: tenantView(c, tenant),
      flash: flashOf(c, { transfer: "Transfer asked: nothing changes until the member accepts it." }),
      body: html`${problemBox(problem)}
${
  tenant.role !== "owner"
    ? html`<p>Only the owner of ${tenant.name} can transfer or delete it.</p>`
    : html`<h2 id="transfer">Transfer ownership</h2>
${
  others.length
    ? html`<form method="post" action="${pagePath(tenant.id, "/ownership/transfer")}" class="stack">${csrfField(c.get("csrf"))}
  <label for="new-owner">New owner</label>
  <select id="new-owner" name="new_owner_sub">${others.map((m) => html`<option value="${m.sub}">${m.name} (${m.role})</option>`)}</select>
  <button type="submit">Ask to take over</button>
</form>`
    : html`<p>Invite someone in <a href="${pagePath(tenant.id, "/members")}">Members</a> first: only a member can become the owner.</p>`
}
<section class="danger-zone" aria-labelledby="delete-tenant">
  <h2 id="delete-tenant">Delete this tenant</h2>
  <p>Its members lose access, its API keys stop working and its marketplace connection ends. Type the tenant's name to confirm.</p>
  <form method="post" action="${pagePath(tenant.id, "/ownership/delete")}" class="stack">${csrfField(c.get("csrf"))}
    <label for="confirm-name">Tenant name</label>
    ${error ? html`<p class="field-error" id="confirm-name-error">${error}</p>` : ""}
    <input id="confirm-name" name="confirm" autocomplete="off"${error ? html` aria-invalid="true" aria-describedby="confirm-name-error"` : ""}>
    <button type="submit" class="danger">Delete tenant</button>
  </form>
</section>`
}`,
    }),
    problem || error ? 400 : 200,
  );
}

/**
 * A tenant's ownership: ask a member to take over (POST …/ownership-transfer: a pending transfer
 * they accept in Invitations) and soft-delete it (DELETE /v1/tenants/{id}, the name typed to
 * confirm). The owner case of Delete account links here.
 */
export function mountTenantOwnership(app: ConsoleApp): void {
  app.get("/app/t/:tenant/ownership", signedIn(), async (c) => {
    const found = await tenantOf(c);
    return "page" in found ? found.page : ownershipPage(c, found.tenant);
  });
  app.post("/app/t/:tenant/ownership/transfer", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const sub = String((await c.req.parseBody()).new_owner_sub ?? "");
    const answer = await c.get("api")({
      method: "POST",
      path: `/v1/tenants/${found.tenant.id}/ownership-transfer`,
      body: { new_owner_sub: sub },
    });
    if (!answer.ok) return ownershipPage(c, found.tenant, answer.problem);
    return c.redirect(pagePath(found.tenant.id, "/ownership?done=transfer"), 303);
  });
  app.post("/app/t/:tenant/ownership/delete", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    if ((await c.req.parseBody()).confirm !== found.tenant.name)
      return ownershipPage(c, found.tenant, undefined, "Type the tenant's name exactly. Nothing was deleted.");
    const answer = await c.get("api")({ method: "DELETE", path: `/v1/tenants/${found.tenant.id}` });
    if (!answer.ok) return ownershipPage(c, found.tenant, answer.problem);
    return c.redirect("/app/tenants?done=deleted", 303);
  });
}
