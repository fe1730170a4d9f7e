import type { OfferList } from "@flowstate/contracts/rest/offers/offers";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

const STATES = ["draft", "released", "expired"] as const;

/** Offers: the list with its filters in the URL (shareable, back-button safe) and cursor paging. */
export function mountOffersList(app: ConsoleApp): void {
  app.get("/app/t/:tenant/offers", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const state = STATES.find((s) => s === c.req.query("state"));
    const cursor = c.req.query("cursor");
    const q = new URLSearchParams({ ...(state && { state }), ...(cursor && { cursor }) });
    const list = await c.get("api")<OfferList>({ method: "GET", path: connectorPath(tenant.id, `/offers?${q}`) });
    if (!list.ok) return renderFeatureProblem(c, tenant, list.problem);
    const { offers, next_cursor } = list.body;
    return c.html(
      layout({
        title: "Offers",
        signedIn: tenantView(c, tenant),
        flash: flashOf(c, { disconnected: "Disconnected." }),
        body: html`<p><a class="button" href="${pagePath(tenant.id, "/offers/new")}">Create offer</a></p>
<form method="get" action="${pagePath(tenant.id, "/offers")}" class="filters">
  <label for="state">State</label>
  <select id="state" name="state">
    <option value="">Any</option>
    ${STATES.map((s) => html`<option value="${s}"${s === state ? " selected" : ""}>${s}</option>`)}
  </select>
  <button type="submit">Filter</button>
</form>
${
  offers.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Private offers${state ? ` (${state})` : ""}</caption>
<thead><tr><th scope="col">Offer</th><th scope="col">State</th><th scope="col">Buyers</th><th scope="col">Available until</th></tr></thead>
<tbody>${offers.map(
        (o) =>
          html`<tr><td><a href="${pagePath(tenant.id, `/offers/${o.offer_id}`)}">${o.name ?? o.offer_id}</a></td><td>${o.state}</td><td>${o.buyer_accounts.join(", ")}</td><td>${o.availability_end_date ?? ""}</td></tr>`,
      )}</tbody></table></div>
${next_cursor ? html`<p><a href="${pagePath(tenant.id, `/offers?${new URLSearchParams({ ...(state && { state }), cursor: next_cursor })}`)}">Next page</a></p>` : ""}`
    : html`<p>No offer${state ? ` in state ${state}` : ""} yet.</p>`
}`,
      }),
    );
  });
}
