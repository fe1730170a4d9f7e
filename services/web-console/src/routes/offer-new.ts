import type { ProductList } from "@flowstate/contracts/rest/connector/marketplace";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { Currency } from "@flowstate/contracts/rest/offers/common";
import type { SellerCurrencies } from "@flowstate/contracts/rest/offers/currencies";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import { renderFeatureProblem } from "./marketplace-onboarding.ts";
import { connectorPath, pagePath } from "./marketplace-paths.ts";
import { tenantOf, tenantView } from "./tenant-context.ts";

type Values = Record<string, string>;

/** Where each API field error is shown (problem `errors[].path` → the form's field). */
const FIELD_OF: [RegExp, string][] = [
  [/^product_id/, "product_id"],
  [/^name/, "name"],
  [/^description/, "description"],
  [/^buyer_accounts/, "buyer_accounts"],
  [/^pricing\.currency/, "currency"],
  [/^pricing\.price/, "price"],
  [/^pricing\.dimensions/, "dimension"],
  [/^validity/, "duration"],
  [/^availability_end_date/, "availability_end_date"],
  [/^legal_terms/, "eula_url"],
];

function fieldErrors(problem: ApiProblem | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(problem?.fields ?? {})) {
    const field = FIELD_OF.find(([re]) => re.test(path))?.[1];
    if (field) out[field] ??= message;
  }
  return out;
}

const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

async function formPage(c: ConsoleContext, tenant: Tenant, values: Values, problem?: ApiProblem) {
  const api = c.get("api");
  const [products, currencies] = await Promise.all([
    api<ProductList>({ method: "GET", path: connectorPath(tenant.id, "/products?limit=50") }),
    api<SellerCurrencies>({ method: "GET", path: connectorPath(tenant.id, "/seller/currencies") }),
  ]);
  if (!products.ok) return renderFeatureProblem(c, tenant, products.problem);
  // The payout currencies when known; AWS documents no way to read them, so today: every currency and why.
  const offered = currencies.ok && currencies.body.determined ? currencies.body.currencies : Currency.options;
  const notice = currencies.ok && !currencies.body.determined ? currencies.body.reason : undefined;
  const errors = fieldErrors(problem);
  const err = (f: string) => (errors[f] ? html`<p class="field-error" id="${f}-error">${errors[f]}</p>` : "");
  const aria = (f: string, hint?: string) =>
    errors[f]
      ? html` aria-invalid="true" aria-describedby="${f}-error${hint ? ` ${hint}` : ""}"`
      : hint
        ? html` aria-describedby="${hint}"`
        : "";
  const v = (k: string, d = "") => values[k] ?? d;
  return c.html(
    layout({
      title: "Create a private offer",
      signedIn: tenantView(c, tenant),
      body: html`${problemBox(problem)}
<form method="post" action="${pagePath(tenant.id, "/offers/new")}" class="stack">
  ${csrfField(c.get("csrf"))}
  <label for="product_id">Product</label>${err("product_id")}
  <select id="product_id" name="product_id"${aria("product_id")}>
    ${products.body.products.map((p) => html`<option value="${p.id}"${p.id === v("product_id") ? " selected" : ""}>${p.title ?? p.id} (${p.visibility ?? "?"})</option>`)}
  </select>
  <label for="name">Offer name</label>${err("name")}
  <input id="name" name="name" required maxlength="150" value="${v("name")}"${aria("name")}>
  <label for="description">Description</label>${err("description")}
  <textarea id="description" name="description" required maxlength="255" rows="3"${aria("description")}>${v("description")}</textarea>
  <label for="buyer_accounts">Buyer AWS account IDs</label>
  <p class="hint" id="buyers-hint">12 digits each, one per line (up to 26).</p>${err("buyer_accounts")}
  <textarea id="buyer_accounts" name="buyer_accounts" rows="3" spellcheck="false"${aria("buyer_accounts", "buyers-hint")}>${v("buyer_accounts")}</textarea>
  <label for="currency">Currency</label>
  ${notice ? html`<p class="hint" id="currency-notice">Your payout currencies could not be determined, so every currency is offered: ${notice}</p>` : ""}${err("currency")}
  <select id="currency" name="currency"${aria("currency", notice ? "currency-notice" : undefined)}>
    ${offered.map((x) => html`<option value="${x}"${x === v("currency", "USD") ? " selected" : ""}>${x}</option>`)}
  </select>
  <label for="price">Upfront price</label>
  <p class="hint" id="price-hint">For the whole contract, e.g. 12000.00.</p>${err("price")}
  <input id="price" name="price" inputmode="decimal" required value="${v("price")}"${aria("price", "price-hint")}>
  <label for="dimension">Dimension key</label>${err("dimension")}
  <input id="dimension" name="dimension" required maxlength="100" spellcheck="false" value="${v("dimension")}"${aria("dimension")}>
  <label for="duration">Contract duration</label>${err("duration")}
  <select id="duration" name="duration"${aria("duration")}>
    ${[
      ["P1M", "1 month"],
      ["P12M", "12 months"],
      ["P24M", "24 months"],
      ["P36M", "36 months"],
    ].map(
      ([d, label]) => html`<option value="${d}"${d === v("duration", "P12M") ? " selected" : ""}>${label}</option>`,
    )}
  </select>
  <label for="availability_end_date">Buyers can accept it until</label>${err("availability_end_date")}
  <input id="availability_end_date" name="availability_end_date" type="date" required value="${v("availability_end_date", inAMonth())}"${aria("availability_end_date")}>
  <fieldset>
    <legend>End-user license agreement</legend>
    <div class="choice"><input type="radio" id="eula-standard" name="eula" value="standard"${v("eula", "standard") === "standard" ? " checked" : ""}><label for="eula-standard">AWS Standard Contract for AWS Marketplace</label></div>
    <div class="choice"><input type="radio" id="eula-custom" name="eula" value="custom"${v("eula") === "custom" ? " checked" : ""}><label for="eula-custom">Your own EULA (https link below)</label></div>
    <label for="eula_url">EULA link</label>${err("eula_url")}
    <input id="eula_url" name="eula_url" type="url" value="${v("eula_url")}"${aria("eula_url")}>
  </fieldset>
  <button type="submit">Create offer</button>
</form>`,
    }),
    problem ? 400 : 200,
  );
}

/** The API's create request from the form's fields (the API validates; the form only shapes). */
export function offerRequest(f: Values) {
  const buyers = (f.buyer_accounts ?? "")
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    product_id: f.product_id ?? "",
    name: f.name ?? "",
    description: f.description ?? "",
    ...(buyers.length ? { buyer_accounts: buyers } : {}),
    pricing: {
      model: "contract",
      currency: f.currency ?? "",
      price: (f.price ?? "").trim(),
      dimensions: [{ key: (f.dimension ?? "").trim() }],
    },
    legal_terms: { eula: f.eula === "custom" ? { type: "custom", url: f.eula_url ?? "" } : { type: "standard" } },
    validity: { duration: f.duration ?? "" },
    availability_end_date: f.availability_end_date ?? "",
  };
}

/** The offer form: POST …/offers, then the change set's progress page. */
export function mountOfferNew(app: ConsoleApp): void {
  app.get("/app/t/:tenant/offers/new", signedIn(), async (c) => {
    const found = await tenantOf(c);
    return "page" in found ? found.page : formPage(c, found.tenant, {});
  });
  app.post("/app/t/:tenant/offers/new", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const form = Object.fromEntries(
      Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    const answer = await c.get("api")<ChangeHandle>({
      method: "POST",
      path: connectorPath(found.tenant.id, "/offers"),
      body: offerRequest(form),
    });
    if (!answer.ok) return formPage(c, found.tenant, form, answer.problem);
    return c.redirect(pagePath(found.tenant.id, `/changes/${answer.body.change_set_id}`), 303);
  });
}
