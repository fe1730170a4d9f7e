import type { Profile } from "@flowstate/contracts/rest/identity/users";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { layout } from "../pages/layout.ts";

/**
 * Account: the profile and the way to Delete account (interface 4.1 rule 5; there is no Privacy
 * section and no export button: export is REST or MCP only, rule 4).
 */
export function mountAccount(app: ConsoleApp): void {
  app.get("/app/account", signedIn(), async (c) => {
    const me = await c.get("api")<Profile>({ method: "GET", path: "/v1/users/me" });
    if (!me.ok) return renderProblem(c, me.problem, { csrf: c.get("csrf") });
    return c.html(
      layout({
        title: "Account",
        signedIn: { csrf: c.get("csrf") },
        body: html`<dl class="facts">
  <dt>Name</dt><dd>${me.body.name}</dd>
  <dt>E-mail address</dt><dd>${me.body.email}</dd>
  <dt>Member since</dt><dd>${me.body.created_at.slice(0, 10)}</dd>
</dl>
<ul class="cards">
  <li><a href="/app/account/preferences">Profile and notifications</a>: your name, which e-mails you get</li>
  <li><a href="/app/invitations">Invitations</a>: tenants that invited you, ownership transfers</li>
  <li><a href="/app/account/mcp">MCP clients</a>: connect one, see and revoke what you authorized</li>
  <li><a href="/app/account/activity">Activity about me</a>: what was done to your account</li>
</ul>
<section class="danger-zone" aria-labelledby="danger-zone">
  <h2 id="danger-zone">Danger zone</h2>
  <p>Deleting your account erases your personal data and signs you out everywhere. It cannot be undone.</p>
  <p><a class="button danger" href="/app/account/delete">Delete account</a></p>
</section>`,
      }),
    );
  });
}
