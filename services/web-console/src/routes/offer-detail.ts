import { OfferId } from "@flowstate/contracts/rest/offers/common";
import type { ChangeHandle, Offer } from "@flowstate/contracts/rest/offers/offers";
import { html } from "hono/html";
import { notFoundProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { csrfField, layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

/**
 * An offer (GET …/offers/{offer_id}) and what can be done with it: release a draft, expire a
 * released offer (confirmed), clone any. Each action is its API route, then the change set's
 * progress page. Another tenant's offer id answers the API's 404, the same page as a missing one.
 */
export function mountOfferDetail(app: ConsoleApp): void {
  app.get("/app/t/:tenant/offers/:offer", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const id = c.req.param("offer");
    const answer = OfferId.safeParse(id).success
      ? await c.get("api")<Offer>({ method: "GET", path: connectorPath(tenant.id, `/offers/${id}`) })
      : null;
    if (answer === null || !answer.ok)
      return renderFeatureProblem(c, tenant, answer?.ok === false ? answer.problem : notFoundProblem());
    const o = answer.body;
    const action = (name: string, label: string, extra: unknown = "") =>
      html`<form method="post" action="${pagePath(tenant.id, `/offers/${o.offer_id}/${name}`)}" class="stack">${csrfField(c.get("csrf"))}${extra}<button type="submit"${name === "expire" ? html` class="danger"` : ""}>${label}</button></form>`;
    const pricing = o.pricing;
    return c.html(
      layout({
        title: o.name ?? o.offer_id,
        signedIn: tenantView(c, tenant),
        body: html`<dl class="facts">
  <dt>Offer id</dt><dd><code>${o.offer_id}</code></dd>
  <dt>State</dt><dd>${o.state}</dd>
  <dt>Product</dt><dd><code>${o.product_id}</code></dd>
  <dt>Buyer accounts</dt><dd>${o.buyer_accounts.join(", ") || "none"}</dd>
  ${o.description ? html`<dt>Description</dt><dd>${o.description}</dd>` : ""}
  ${
    pricing?.model === "contract"
      ? html`<dt>Price</dt><dd>${pricing.price} ${pricing.currency} upfront; ${pricing.dimensions.map((d) => `${d.key} × ${d.quantity}`).join(", ")}</dd>`
      : pricing
        ? html`<dt>Price</dt><dd>usage, ${pricing.currency}: ${pricing.rates.map((r) => `${r.dimension_key} ${r.price}`).join(", ")}</dd>`
        : ""
  }
  ${o.validity ? html`<dt>Validity</dt><dd>${"duration" in o.validity ? o.validity.duration : `until ${o.validity.end_date}`}</dd>` : ""}
  ${o.availability_end_date ? html`<dt>Available until</dt><dd>${o.availability_end_date}</dd>` : ""}
  ${o.legal_terms ? html`<dt>EULA</dt><dd>${o.legal_terms.eula.type === "custom" ? o.legal_terms.eula.url : "AWS Standard Contract"}</dd>` : ""}
</dl>
<h2>Actions</h2>
${o.state === "draft" ? action("release", "Release offer") : ""}
${action("clone", "Clone offer")}
${
  o.state === "released"
    ? html`<section class="danger-zone" aria-labelledby="expire-title"><h2 id="expire-title">Expire</h2>
<p>Buyers can no longer accept this offer; agreements already made stay.</p>
${action("expire", "Expire offer", html`<div class="choice"><input type="checkbox" id="confirm-expire" name="confirm" value="yes" required><label for="confirm-expire">I understand buyers can no longer accept it</label></div>`)}</section>`
    : ""
}
<p><a href="${pagePath(tenant.id, "/offers")}">All offers</a></p>`,
      }),
    );
  });
  app.post("/app/t/:tenant/offers/:offer/:action{release|expire|clone}", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const id = c.req.param("offer");
    const action = c.req.param("action");
    if (!OfferId.safeParse(id).success) return renderFeatureProblem(c, tenant, notFoundProblem());
    if (action === "expire" && (await c.req.parseBody()).confirm !== "yes")
      return c.redirect(pagePath(tenant.id, `/offers/${id}`), 303);
    const answer = await c.get("api")<ChangeHandle>({
      method: "POST",
      path: connectorPath(tenant.id, `/offers/${id}/${action}`),
      ...(action === "clone" ? { body: {} } : {}),
    });
    if (!answer.ok) return renderFeatureProblem(c, tenant, answer.problem);
    return c.redirect(pagePath(tenant.id, `/changes/${answer.body.change_set_id}`), 303);
  });
}
