import { type AuthorizedClientList, ClientRef } from "@flowstate/contracts/rest/identity/oauth";
import { html } from "hono/html";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout } from "../pages/layout.ts";
import { flashOf } from "./tenant-context.ts";

/**
 * Account → MCP clients: the clients the user authorized (revoke each: GET/DELETE
 * /v1/users/me/authorized-clients), and how to connect one: the MCP server's URL and a config
 * snippet (the client signs in by OAuth itself, on identity-svc's page, and picks the tenant there).
 */
export function mountAccountMcp(app: ConsoleApp): void {
  app.get("/app/account/mcp", signedIn(), async (c) => {
    const list = await c.get("api")<AuthorizedClientList>({ method: "GET", path: "/v1/users/me/authorized-clients" });
    if (!list.ok) return renderProblem(c, list.problem, { csrf: c.get("csrf") });
    const url = `${c.get("deps").mcpUrl}/mcp`;
    const config = JSON.stringify({ mcpServers: { flowstate: { type: "http", url } } }, null, 2);
    const clients = list.body.authorized_clients;
    return c.html(
      layout({
        title: "MCP clients",
        signedIn: { csrf: c.get("csrf") },
        flash: flashOf(c, { revoked: "Access revoked: the client's tokens stop working at once." }),
        body: html`<h2 id="connect">Connect an MCP client</h2>
<p>Server URL: <code>${url}</code>. The client opens Flowstate's sign-in page and asks which tenant it may act in.</p>
<p>Claude Code:</p>
<pre tabindex="0" aria-label="Claude Code command"><code>claude mcp add --transport http flowstate ${url}</code></pre>
<p>Clients configured by JSON (Claude Desktop, Cursor, VS Code):</p>
<pre tabindex="0" aria-label="MCP client configuration"><code>${config}</code></pre>
<h2 id="authorized">Clients you authorized</h2>
${
  clients.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>MCP clients with access to your account</caption>
<thead><tr><th scope="col">Client</th><th scope="col">Scopes</th><th scope="col">Tenants</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
<tbody>${clients.map(
        (
          x,
        ) => html`<tr><td>${x.client_name}</td><td>${x.scopes.join(", ")}</td><td>${x.tenant_ids.join(", ")}</td><td>${x.last_used_at.slice(0, 10)}</td><td>
<form method="post" action="/app/account/mcp/${x.client_ref}/revoke" class="inline">${csrfField(c.get("csrf"))}<button type="submit" class="danger">Revoke ${x.client_name}</button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No MCP client has access to your account.</p>`
}`,
      }),
    );
  });
  app.post("/app/account/mcp/:client/revoke", signedIn(), requireCsrf(), async (c) => {
    const ref = c.req.param("client");
    if (!ClientRef.safeParse(ref).success) return c.redirect("/app/account/mcp", 303);
    const answer = await c.get("api")({ method: "DELETE", path: `/v1/users/me/authorized-clients/${ref}` });
    if (!answer.ok) return renderProblem(c, answer.problem, { csrf: c.get("csrf") });
    return c.redirect("/app/account/mcp?done=revoked", 303);
  });
}
