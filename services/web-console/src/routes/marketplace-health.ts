import type { HealthReport } from "@flowstate/contracts/rest/connector/diagnosis";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { diagnosisList } from "../pages/diagnosis.ts";
import { layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, onboardingPathOf, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

const CAPABILITIES: Record<string, string> = {
  products: "List products",
  offers: "Create, clone, release and expire offers",
  seller_currencies: "Read the seller's payout currencies",
  agreements: "List agreements",
};

/** What a passing check still cannot tell, where the API says it (`note`, when the contract has one). */
const noteOf = (x: object) => (x as { note?: { detail?: string } }).note?.detail ?? "";

/**
 * Health: each principal and capability checked now (GET …/health), the migration banner with its
 * fix when the role's policy predates 2026-08-31, and every diagnosis with the fix for the path
 * the seller names (`?path=`). "Check again" is a plain link: each load re-checks.
 */
export function mountMarketplaceHealth(app: ConsoleApp): void {
  app.get("/app/t/:tenant/marketplace/health", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const report = await c.get("api")<HealthReport>({ method: "GET", path: connectorPath(tenant.id, "/health") });
    if (!report.ok) return renderFeatureProblem(c, tenant, report.problem);
    const h = report.body;
    const path = onboardingPathOf(c.req.query("path"));
    const migration = h.diagnosis.find((d) => d.code === "POLICY_MIGRATION_REQUIRED");
    return c.html(
      layout({
        title: "Connection health",
        signedIn: tenantView(c, tenant),
        body: html`${
          migration
            ? html`<div class="warning" role="note"><strong>Update your connector role.</strong> ${migration.summary} Fix: ${migration.fixes[path]}</div>`
            : ""
        }
<p>Overall: <strong>${h.healthy ? "Healthy" : "Needs attention"}</strong> · checked ${h.checked_at.slice(0, 19).replace("T", " ")} UTC · <a href="${pagePath(tenant.id, "/marketplace/health")}">Check again</a></p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Principals</caption>
<thead><tr><th scope="col">Principal</th><th scope="col">Can assume the role</th><th scope="col">AWS error</th></tr></thead>
<tbody>${h.principals.map((p) => html`<tr><td>${p.principal}</td><td>${p.can_assume ? "Yes" : "No"}</td><td>${p.error ?? ""}</td></tr>`)}</tbody>
</table></div>
<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>Capabilities</caption>
<thead><tr><th scope="col">Capability</th><th scope="col">Works</th><th scope="col">Note</th></tr></thead>
<tbody>${h.capabilities.map(
          (x) =>
            html`<tr><td>${CAPABILITIES[x.capability] ?? x.capability}</td><td>${x.ok ? "Yes" : "No"}</td><td>${x.error ?? ""}${noteOf(x)}</td></tr>`,
        )}</tbody>
</table></div>
${h.diagnosis.length ? html`<h2>What to fix</h2>${diagnosisList(h.diagnosis, path)}` : ""}
<p><a href="${pagePath(tenant.id, "/marketplace")}">Back to onboarding</a></p>`,
      }),
    );
  });
}
