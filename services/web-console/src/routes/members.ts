import { Sub } from "@flowstate/contracts/ids";
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

async function membersPage(c: ConsoleContext, tenant: Tenant, problem?: ApiProblem) {
  const list = await c.get("api")<MemberList>({ method: "GET", path: `/v1/tenants/${tenant.id}/members` });
  if (!list.ok) return renderProblem(c, list.problem, tenantView(c, tenant));
  const admin = tenant.role !== "member";
  const me = c.get("session").sub;
  const row = (m: MemberList["members"][number]) => {
    const editable = admin && m.role !== "owner" && m.sub !== me;
    return html`<tr><td>${m.name}</td><td>${m.email}</td><td>${m.role}</td><td>${
      editable
        ? html`<form method="post" action="${pagePath(tenant.id, `/members/${m.sub}/role`)}" class="inline">${csrfField(c.get("csrf"))}
  <label for="role-${m.sub}" class="visually-hidden">Role of ${m.name}</label>
  <select id="role-${m.sub}" name="role">${["admin", "member"].map((r) => html`<option value="${r}"${r === m.role ? " selected" : ""}>${r}</option>`)}</select>
  <button type="submit">Change role of ${m.name}</button></form>
<form method="post" action="${pagePath(tenant.id, `/members/${m.sub}/remove`)}" class="inline">${csrfField(c.get("csrf"))}<button type="submit" class="danger">Remove ${m.name}</button></form>`
        : ""
    }</td></tr>`;
  };
  return c.html(
    layout({
      title: "Members",
      signedIn: tenantView(c, tenant),
      flash: flashOf(c, {
        invited: "Invitation sent. It lasts seven days.",
        changed: "The role was changed.",
        removed: "The member was removed.",
      }),
      body: html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Members of ${tenant.name}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">E-mail address</th><th scope="col">Role</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.body.members.map(row)}</tbody></table></div>
${
  admin
    ? html`<h2 id="invite">Invite someone</h2>${problemBox(problem)}
<form method="post" action="${pagePath(tenant.id, "/members")}" class="stack">${csrfField(c.get("csrf"))}
  <label for="invite-email">E-mail address</label>
  <input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off">
  <label for="invite-role">Role</label>
  <select id="invite-role" name="role"><option value="member">member</option><option value="admin">admin</option></select>
  <button type="submit">Send invitation</button>
</form>`
    : ""
}`,
    }),
    problem ? 400 : 200,
  );
}

/** Members & invitations of a tenant: invite (POST …/members), change a role, remove (admins). */
export function mountMembers(app: ConsoleApp): void {
  app.get("/app/t/:tenant/members", signedIn(), async (c) => {
    const found = await tenantOf(c);
    return "page" in found ? found.page : membersPage(c, found.tenant);
  });
  app.post("/app/t/:tenant/members", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const form = await c.req.parseBody();
    const answer = await c.get("api")({
      method: "POST",
      path: `/v1/tenants/${found.tenant.id}/members`,
      body: { email: String(form.email ?? ""), role: String(form.role ?? "") },
    });
    if (!answer.ok) return membersPage(c, found.tenant, answer.problem);
    return c.redirect(pagePath(found.tenant.id, "/members?done=invited"), 303);
  });
  app.post("/app/t/:tenant/members/:sub/:action{role|remove}", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const sub = c.req.param("sub");
    if (!Sub.safeParse(sub).success) return membersPage(c, found.tenant);
    const path = `/v1/tenants/${found.tenant.id}/members/${sub}`;
    const remove = c.req.param("action") === "remove";
    const answer = remove
      ? await c.get("api")({ method: "DELETE", path })
      : await c.get("api")({ method: "PATCH", path, body: { role: String((await c.req.parseBody()).role ?? "") } });
    if (!answer.ok) return membersPage(c, found.tenant, answer.problem);
    return c.redirect(pagePath(found.tenant.id, `/members?done=${remove ? "removed" : "changed"}`), 303);
  });
}
