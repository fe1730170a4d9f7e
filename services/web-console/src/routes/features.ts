import type { FeatureFlags } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout } from "../pages/layout.ts";
import { settingsNav } from "../pages/settings-nav.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

/** Settings → Features (interface 4.1 rule 1): the `marketplace_offers` switch, PUT /v1/tenants/{id}/features. */
export function mountFeatures(app: ConsoleApp): void {
  app.get("/app/t/:tenant/settings/features", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const flags = await c.get("api")<FeatureFlags>({ method: "GET", path: `/v1/tenants/${tenant.id}/features` });
    if (!flags.ok) return renderProblem(c, flags.problem, tenantView(c, tenant));
    const on = flags.body.marketplace_offers;
    return c.html(
      layout({
        title: "Settings → Features",
        signedIn: tenantView(c, tenant),
        flash: flashOf(c, { on: "AWS Marketplace offers are on.", off: "AWS Marketplace offers are off." }),
        body: html`${settingsNav(tenant.id, "features")}
<section aria-labelledby="offers-feature">
<h2 id="offers-feature">AWS Marketplace offers</h2>
<p>Connect a seller account, create private offers and see agreements. Status: <strong>${on ? "On" : "Off"}</strong>.</p>
<form method="post" action="/app/t/${tenant.id}/settings/features">
  ${csrfField(c.get("csrf"))}
  <input type="hidden" name="marketplace_offers" value="${on ? "false" : "true"}">
  <button type="submit">${on ? "Turn off AWS Marketplace offers" : "Turn on AWS Marketplace offers"}</button>
</form>
</section>`,
      }),
    );
  });
  app.post("/app/t/:tenant/settings/features", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const on = (await c.req.parseBody()).marketplace_offers === "true";
    const id = found.tenant.id;
    const answer = await c.get("api")({
      method: "PUT",
      path: `/v1/tenants/${id}/features`,
      body: { marketplace_offers: on },
    });
    if (!answer.ok) return renderProblem(c, answer.problem, tenantView(c, found.tenant));
    return c.redirect(`/app/t/${id}/settings/features?done=${on ? "on" : "off"}`, 303);
  });
}
