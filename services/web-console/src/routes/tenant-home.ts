import type { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout } from "../pages/layout.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

/** A tenant's overview: what is on, and where to go next. */
export function mountTenantHome(app: ConsoleApp): void {
  app.get("/app/t/:tenant", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const flags = await c.get("api")<FeatureFlags>({ method: "GET", path: `/v1/tenants/${tenant.id}/features` });
    const offersOn = flags.ok && flags.body.marketplace_offers;
    return c.html(
      layout({
        title: tenant.name,
        signedIn: tenantView(c, tenant),
        flash: flashOf(c, { created: "The tenant was created. You are its owner." }),
        body: html`<p>Your role: <strong>${tenant.role}</strong>.</p>
<p class="actions"><a href="/app/t/${tenant.id}/members">Members</a> <a href="/app/t/${tenant.id}/api-keys">API keys</a> <a href="/app/t/${tenant.id}/audit">Audit log</a> <a href="/app/t/${tenant.id}/ownership">Ownership</a></p>
${
  offersOn
    ? html`<ul class="cards">
  <li><a href="/app/t/${tenant.id}/marketplace">Marketplace onboarding</a>: connect your AWS seller account</li>
  <li><a href="/app/t/${tenant.id}/offers">Offers</a>: private offers and their changes</li>
  <li><a href="/app/t/${tenant.id}/agreements">Agreements</a>: what buyers accepted</li>
  <li><a href="/app/t/${tenant.id}/partner">Partner</a>: opportunities and engagements from Partner Central</li>
</ul>`
    : html`<p>AWS Marketplace offers are off for this tenant. Turn them on in <a href="/app/t/${tenant.id}/settings/features">Settings → Features</a>.</p>`
}`,
      }),
    );
  });
}
