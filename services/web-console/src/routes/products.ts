import type { ProductList } from "@flowstate/contracts/rest/connector/marketplace";
import { html } from "hono/html";
import type { ConsoleApp } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { layout } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

/** Products: the seller account's SaaS products (GET …/products), cursor paging in the URL. */
export function mountProducts(app: ConsoleApp): void {
  app.get("/app/t/:tenant/products", signedIn(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const { tenant } = found;
    const cursor = c.req.query("cursor");
    const q = new URLSearchParams(cursor ? { cursor } : {});
    const list = await c.get("api")<ProductList>({ method: "GET", path: connectorPath(tenant.id, `/products?${q}`) });
    if (!list.ok) return renderFeatureProblem(c, tenant, list.problem);
    const { products, next_cursor } = list.body;
    return c.html(
      layout({
        title: "Products",
        signedIn: tenantView(c, tenant),
        body: products.length
          ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>SaaS products of the connected seller account</caption>
<thead><tr><th scope="col">Product</th><th scope="col">Id</th><th scope="col">Visibility</th><th scope="col">Changed</th></tr></thead>
<tbody>${products.map(
              (p) =>
                html`<tr><td>${p.title ?? "(untitled)"}</td><td><code>${p.id}</code></td><td>${p.visibility ?? ""}</td><td>${p.last_modified?.slice(0, 10) ?? ""}</td></tr>`,
            )}</tbody></table></div>
${next_cursor ? html`<p><a href="${pagePath(tenant.id, `/products?cursor=${encodeURIComponent(next_cursor)}`)}">Next page</a></p>` : ""}
<p><a class="button" href="${pagePath(tenant.id, "/offers/new")}">Create offer</a></p>`
          : html`<p>The seller account has no SaaS product yet. Create one in the AWS Marketplace Management Portal.</p>`,
      }),
    );
  });
}
