import type { AgreementList } from "@flowstate/contracts/rest/offers/agreements";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout, problemBox } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

/**
 * Agreements (GET …/agreements). A role deployed before 2026-08-31 lacks SearchAgreements and the
 * API answers the interface's generic 500 (section 7): the page says so and links to Health,
 * which names the policy update for the seller's path.
 */
export function mountAgreements(app: ConsoleApp): void {
  app.get("/app/t/:tenant/agreements", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const cursor = c.req.query("cursor");
    const q = new URLSearchParams(cursor ? { cursor } : {});
    const read = () =>
      c.get("api")<AgreementList>({ method: "GET", path: connectorPath(tenant.id, `/agreements?${q}`) });
    let list = await read();
    // The tenant's first read waits for the watch's first pass: the API says 503 ("being read from
    // AWS; retry shortly"). A person should see the agreements, not that: ask again for a few seconds.
    for (let i = 0; i < 12 && !list.ok && list.problem.code === "UPSTREAM_UNAVAILABLE"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      list = await read();
    }
    if (!list.ok && list.problem.code === "INTERNAL_ERROR")
      return c.html(
        layout({
          title: "Agreements",
          signedIn: tenantView(c, tenant),
          body: html`<div class="warning" role="note"><strong>Agreements cannot be listed.</strong> This usually means the connector role was created before 2026-08-31 and lacks the permission to search agreements; products and offers keep working. <a href="${pagePath(tenant.id, "/marketplace/health")}">Check the connection's health</a> for the update that fixes it.</div>${problemBox(list.problem)}`,
        }),
        503,
      );
    if (!list.ok) return renderFeatureProblem(c, tenant, list.problem);
    const { agreements, next_cursor, synced_at } = list.body;
    // The list is the agreement watch's last read of the seller's account, not a live call: say when.
    const asOf = html`<p class="meta" id="agreements-as-of">As of <time datetime="${synced_at}">${utcMinute(synced_at)}</time>, as last read from your AWS account (read again periodically).</p>`;
    return c.html(
      layout({
        title: "Agreements",
        signedIn: tenantView(c, tenant),
        body: html`${asOf}${
          agreements.length
            ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Purchase agreements from your offers</caption>
<thead><tr><th scope="col">Agreement</th><th scope="col">Status</th><th scope="col">Offer</th><th scope="col">Buyer</th><th scope="col">Accepted</th><th scope="col">Ends</th></tr></thead>
<tbody>${agreements.map(
                (a) =>
                  html`<tr><td><code>${a.agreement_id}</code></td><td>${a.status}</td><td>${a.offer_id ? html`<a href="${pagePath(tenant.id, `/offers/${a.offer_id}`)}">${a.offer_id}</a>` : ""}</td><td>${a.buyer_account_id ?? ""}</td><td>${a.accepted_at?.slice(0, 10) ?? ""}</td><td>${a.end_time?.slice(0, 10) ?? "no end"}</td></tr>`,
              )}</tbody></table></div>
${next_cursor ? html`<p><a href="${pagePath(tenant.id, `/agreements?cursor=${encodeURIComponent(next_cursor)}`)}">Next page</a></p>` : ""}`
            : html`<p>No agreement yet: they appear when a buyer accepts one of your offers.</p>`
        }`,
      }),
    );
  });
}

/** An instant as a person reads it, to the minute, in UTC (the server does not know the reader's zone). */
export const utcMinute = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
