import { ApiKeyId } from "@flowstate/contracts/ids";
import type { ApiKeyList, CreatedApiKey } from "@flowstate/contracts/rest/identity/api-keys";
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

/**
 * The API keys page. A new key's secret is shown once, on the answer to the creating post itself
 * (never in a URL, never stored by the console, no-store like every page), in a disclosure.
 */
async function keysPage(c: ConsoleContext, tenant: Tenant, created?: CreatedApiKey, problem?: ApiProblem) {
  const list = await c.get("api")<ApiKeyList>({ method: "GET", path: `/v1/tenants/${tenant.id}/api-keys` });
  if (!list.ok) return renderProblem(c, list.problem, tenantView(c, tenant));
  const live = list.body.api_keys.filter((k) => !k.revoked_at);
  return c.html(
    layout({
      title: "API keys",
      signedIn: tenantView(c, tenant),
      flash: flashOf(c, { revoked: "The key was revoked: it stops working at once." }),
      body: html`${
        created
          ? html`<div class="flash" role="status"><p><strong>Key ${created.name} created.</strong> Copy its secret now: it is not shown again.</p>
<details open class="secret"><summary>Secret of ${created.name}</summary><p><code id="new-key-secret">${created.secret}</code></p></details></div>`
          : ""
      }
${
  live.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Keys of ${tenant.name}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
<tbody>${live.map(
        (
          k,
        ) => html`<tr><td>${k.name}</td><td>${k.scope}</td><td><code>${k.prefix}</code></td><td>${k.created_at.slice(0, 10)}</td><td>
<form method="post" action="${pagePath(tenant.id, `/api-keys/${k.key_id}/revoke`)}" class="inline">${csrfField(c.get("csrf"))}<button type="submit" class="danger">Revoke ${k.name}</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No API key yet. A key lets a script or an MCP client act in this tenant without a person signing in.</p>`
}
<h2 id="create-key">Create a key</h2>${problemBox(problem)}
<form method="post" action="${pagePath(tenant.id, "/api-keys")}" class="stack">${csrfField(c.get("csrf"))}
  <label for="key-name">Key name</label>
  <input id="key-name" name="name" required maxlength="100">
  <label for="key-scope">Scope</label>
  <select id="key-scope" name="scope"><option value="read">read</option><option value="write">write</option></select>
  <button type="submit">Create key</button>
</form>`,
    }),
    problem ? 400 : created ? 201 : 200,
  );
}

/** API keys of a tenant: list, create (the secret shown once), revoke. */
export function mountApiKeys(app: ConsoleApp): void {
  app.get("/app/t/:tenant/api-keys", signedIn(), async (c) => {
    const found = await tenantOf(c);
    return "page" in found ? found.page : keysPage(c, found.tenant);
  });
  app.post("/app/t/:tenant/api-keys", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const form = await c.req.parseBody();
    const created = await c.get("api")<CreatedApiKey>({
      method: "POST",
      path: `/v1/tenants/${found.tenant.id}/api-keys`,
      body: { name: String(form.name ?? ""), scope: String(form.scope ?? "") },
    });
    return created.ok ? keysPage(c, found.tenant, created.body) : keysPage(c, found.tenant, undefined, created.problem);
  });
  app.post("/app/t/:tenant/api-keys/:key/revoke", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const key = c.req.param("key");
    if (!ApiKeyId.safeParse(key).success) return keysPage(c, found.tenant);
    const answer = await c.get("api")({ method: "DELETE", path: `/v1/tenants/${found.tenant.id}/api-keys/${key}` });
    if (!answer.ok) return keysPage(c, found.tenant, undefined, answer.problem);
    return c.redirect(pagePath(found.tenant.id, "/api-keys?done=revoked"), 303);
  });
}
