import type { PartnerEngagement, PartnerOpportunity } from "@flowstate/contracts/rest/partner/sync-state";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

type Page<T> = { items: T[]; next_cursor: string | null };
const CURSOR = /^[A-Za-z0-9_-]{1,400}$/;

/** Partner: the opportunities and engagements Partner Central reported for the seller account (read-only). */
export function mountPartner(app: ConsoleApp): void {
  app.get("/app/t/:tenant/partner", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const api = c.get("api");
    const [opportunities, engagements] = await Promise.all([
      api<Page<PartnerOpportunity>>({ method: "GET", path: `/v1/tenants/${tenant.id}/partner/opportunities` }),
      api<Page<PartnerEngagement>>({ method: "GET", path: `/v1/tenants/${tenant.id}/partner/engagements` }),
    ]);
    if (!opportunities.ok) return renderFeatureProblem(c, tenant, opportunities.problem);
    if (!engagements.ok) return renderFeatureProblem(c, tenant, engagements.problem);
    const more = (kind: string, cursor: string | null) =>
      cursor && CURSOR.test(cursor) ? html`<p class="meta">More ${kind} exist than fit on this page.</p>` : "";
    return c.html(
      layout({
        title: "Partner",
        signedIn: tenantView(c, tenant),
        body: html`<h2 id="opportunities">Opportunities</h2>
${
  opportunities.body.items.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Opportunities (scrolls sideways on narrow screens)"><table>
<caption>Opportunities, most recent first</caption>
<thead><tr><th scope="col">Opportunity</th><th scope="col">Review</th><th scope="col">Last event</th><th scope="col">When</th></tr></thead>
<tbody>${opportunities.body.items.map((o) => html`<tr><td><code>${o.opportunity_id}</code></td><td>${o.review_outcome ?? "not reviewed"}</td><td>${o.last_event_type}</td><td>${o.last_event_at.slice(0, 10)}</td></tr>`)}</tbody></table></div>${more("opportunities", opportunities.body.next_cursor)}`
    : html`<p>No opportunity reported yet.</p>`
}
<h2 id="engagements">Engagements</h2>
${
  engagements.body.items.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Engagements (scrolls sideways on narrow screens)"><table>
<caption>Engagements, most recent first</caption>
<thead><tr><th scope="col">Engagement</th><th scope="col">Invitation</th><th scope="col">Opportunities</th><th scope="col">When</th></tr></thead>
<tbody>${engagements.body.items.map((e) => html`<tr><td><code>${e.engagement_id}</code></td><td>${e.invitation_status ?? ""}</td><td>${e.opportunity_ids.join(", ")}</td><td>${e.last_event_at.slice(0, 10)}</td></tr>`)}</tbody></table></div>${more("engagements", engagements.body.next_cursor)}`
    : html`<p>No engagement reported yet.</p>`
}
<p><a href="${pagePath(tenant.id)}">Back to ${tenant.name}</a></p>`,
      }),
    );
  });
}
