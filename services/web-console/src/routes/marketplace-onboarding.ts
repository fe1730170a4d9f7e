import type { Diagnosis } from "@flowstate/contracts/rest/connector/diagnosis";
import type { ConnectorStatus, OnboardingBundle } from "@flowstate/contracts/rest/connector/marketplace";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { html } from "hono/html";
import type { ApiProblem } from "../api/api-client.ts";
import { requireCsrf } from "../http/csrf.ts";
import type { ConsoleApp, ConsoleContext } from "../http/env.ts";
import { signedIn } from "../http/signed-in.ts";
import { diagnosisList } from "../pages/diagnosis.ts";
import { renderProblem } from "../pages/error-page.ts";
import { csrfField, layout, problemBox } from "../pages/layout.ts";
import {
  connectorPath,
  ONBOARDING_PATHS,
  type OnboardingPath,
  onboardingPathOf,
  pagePath,
} from "./marketplace-paths.ts";
import { flashOf, tenantOf, tenantView } from "./tenant-context.ts";

/** The three checks of a connect, in order (connector-svc's verify-role.ts). */
const STEPS = [
  ["assume_role", "Flowstate's principal assumes your role with your external ID"],
  ["verify_catalog_read", "The role reads your AWS Marketplace catalog"],
  ["external_id_not_enforced", "The role refuses a wrong external ID"],
] as const;

interface ConnectFailure {
  roleArn: string;
  path: OnboardingPath;
  problem: ApiProblem;
}

function stepsOf(failure: ConnectFailure) {
  const failed = failure.problem.body.step;
  const at = STEPS.findIndex(([id]) => id === failed);
  return html`<ol class="steps">${STEPS.map(([, label], i) => {
    const state = at < 0 ? "not run" : i < at ? "passed" : i === at ? "failed" : "not run";
    return html`<li class="step-${state.replace(" ", "-")}"><strong>${state === "passed" ? "Passed" : state === "failed" ? "Failed" : "Not run"}:</strong> ${label}${
      state === "failed" && typeof failure.problem.body.upstream_error === "string"
        ? html` (AWS answered <code>${failure.problem.body.upstream_error}</code>)`
        : ""
    }</li>`;
  })}</ol>`;
}

/**
 * The external ID stays behind its disclosure: the Terraform snippet and the console steps name it
 * by a placeholder (the quick-create link must carry it: it is AWS's console URL, as the interface
 * specifies the stack's parameters).
 */
const hideExternalId = (text: string, externalId: string) => text.replaceAll(externalId, "<your external ID>");

function connectForm(c: ConsoleContext, tenantId: string, failure?: ConnectFailure) {
  const path = failure?.path ?? "cloudformation";
  return html`<form method="post" action="${pagePath(tenantId, "/marketplace/connect")}" class="stack">
  ${csrfField(c.get("csrf"))}
  <label for="role-arn">Role ARN</label>
  <p class="hint" id="role-arn-hint">The RoleArn output of the stack, e.g. arn:aws:iam::123456789012:role/MarketplaceConnector</p>
  <input id="role-arn" name="role_arn" required maxlength="200" spellcheck="false" autocomplete="off" value="${failure?.roleArn ?? ""}" aria-describedby="role-arn-hint">
  <fieldset>
    <legend>How did you create the role?</legend>
    ${(Object.keys(ONBOARDING_PATHS) as OnboardingPath[]).map(
      (p) =>
        html`<div class="choice"><input type="radio" id="path-${p}" name="path" value="${p}"${p === path ? " checked" : ""}><label for="path-${p}">${ONBOARDING_PATHS[p]}</label></div>`,
    )}
  </fieldset>
  <button type="submit">Connect</button>
</form>`;
}

function notConnected(c: ConsoleContext, tenant: Tenant, bundle: OnboardingBundle, failure?: ConnectFailure) {
  const diagnosis = (failure?.problem.body.diagnosis ?? []) as Diagnosis[];
  return layout({
    title: "Marketplace onboarding",
    signedIn: tenantView(c, tenant),
    body: html`${
      failure && typeof failure.problem.body.step === "string"
        ? html`<div class="problem" role="alert" aria-labelledby="connect-failed">
  <h2 id="connect-failed">The role could not be connected</h2>
  <p>${failure.problem.detail}</p>
  ${stepsOf(failure)}
  ${typeof failure.problem.body.hint === "string" ? html`<p><strong>What to do:</strong> ${failure.problem.body.hint}</p>` : ""}
  ${diagnosisList(diagnosis, failure.path)}
  <p class="meta">Code ${failure.problem.code}${failure.problem.requestId ? html` · request id <code>${failure.problem.requestId}</code>` : ""}</p>
</div>`
        : problemBox(failure?.problem)
    }
<p>Create the <code>${bundle.role_name}</code> role in your AWS seller account (region <code>${bundle.region}</code>), then connect it here with its ARN.</p>
<h2 id="external-id">Your external ID</h2>
<p>The role's trust policy must require it. Keep it to yourself: it is what stops another Flowstate customer from using your role.</p>
<details class="secret"><summary>Show the external ID</summary><p><code id="external-id-value">${bundle.external_id}</code></p></details>
<h2 id="principals">Flowstate's principals</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on narrow screens)"><table>
<caption>The roles your trust policy lists</caption>
<thead><tr><th scope="col">Principal</th><th scope="col">ARN</th><th scope="col">Used by</th></tr></thead>
<tbody>${bundle.principals.map((p) => html`<tr><td>${p.name}</td><td><code>${p.arn}</code></td><td>${p.used_by}</td></tr>`)}</tbody>
</table></div>
<h2 id="paths">Create the role: three ways</h2>
<h3>AWS CloudFormation</h3>
<p>Opens the AWS console with the template and your values filled in; acknowledge the named IAM role and create the stack, wait for CREATE_COMPLETE, then copy the <code>RoleArn</code> output.</p>
<p><a class="button" href="${bundle.cloudformation.quick_create_url}" rel="noopener noreferrer">Launch the stack in AWS CloudFormation</a></p>
<h3>Terraform</h3>
<p>Module <code>${bundle.terraform.module_source}</code> version <code>${bundle.terraform.module_version}</code>; run <code>terraform init</code> and <code>terraform apply</code> with credentials for the seller account in us-east-1.</p>
<pre tabindex="0" aria-label="Terraform configuration"><code>${hideExternalId(bundle.terraform.snippet, bundle.external_id)}</code></pre>
<h3>The AWS console, by hand</h3>
<ol>${bundle.console.steps.map((s) => html`<li>${hideExternalId(s, bundle.external_id)}</li>`)}</ol>
<h2 id="connect">Connect</h2>
${connectForm(c, tenant.id, failure)}`,
  });
}

function connected(c: ConsoleContext, tenant: Tenant, status: Extract<ConnectorStatus, { connected: true }>) {
  return layout({
    title: "Marketplace onboarding",
    signedIn: tenantView(c, tenant),
    flash: flashOf(c, { connected: "Connected: every check passed." }),
    body: html`<dl class="facts">
  <dt>Status</dt><dd>Connected</dd>
  <dt>Seller account</dt><dd><code>${status.account_id}</code></dd>
  <dt>Role ARN</dt><dd><code>${status.role_arn}</code></dd>
  <dt>Connected since</dt><dd>${status.connected_at.slice(0, 16).replace("T", " ")} UTC</dd>
</dl>
<p><a href="${pagePath(tenant.id, "/marketplace/health")}">Check the connection's health</a> · <a href="${pagePath(tenant.id, "/products")}">Products</a> · <a href="${pagePath(tenant.id, "/offers")}">Offers</a></p>
<section class="danger-zone" aria-labelledby="disconnect">
  <h2 id="disconnect">Disconnect</h2>
  <p>Flowstate stops using the role at once: offers and agreements can no longer be read or changed here, and a new external ID is issued. The role stays in your account until you delete it.</p>
  <form method="post" action="${pagePath(tenant.id, "/marketplace/disconnect")}" class="stack">
    ${csrfField(c.get("csrf"))}
    <div class="choice"><input type="checkbox" id="confirm-disconnect" name="confirm" value="yes" required><label for="confirm-disconnect">I understand that Flowstate will stop using this role</label></div>
    <button type="submit" class="danger">Disconnect</button>
  </form>
</section>`,
  });
}

async function onboardingPage(c: ConsoleContext, tenant: Tenant, failure?: ConnectFailure) {
  const api = c.get("api");
  const status = await api<ConnectorStatus>({ method: "GET", path: connectorPath(tenant.id) });
  if (!status.ok) return renderFeatureProblem(c, tenant, status.problem);
  if (status.body.connected) return c.html(connected(c, tenant, status.body));
  const bundle = await api<OnboardingBundle>({ method: "GET", path: connectorPath(tenant.id, "/onboarding") });
  if (!bundle.ok) return renderFeatureProblem(c, tenant, bundle.problem);
  return c.html(notConnected(c, tenant, bundle.body, failure), failure ? 422 : 200);
}

/** A marketplace page of a tenant whose feature is off says where to turn it on; other problems as usual. */
export function renderFeatureProblem(c: ConsoleContext, tenant: Tenant, problem: ApiProblem) {
  if (problem.code !== "FEATURE_DISABLED") return renderProblem(c, problem, tenantView(c, tenant));
  return c.html(
    layout({
      title: "AWS Marketplace offers are off",
      signedIn: tenantView(c, tenant),
      body: html`<p>Turn them on in <a href="${pagePath(tenant.id, "/settings/features")}">Settings → Features</a> first.</p>${problemBox(problem)}`,
    }),
    403,
  );
}

/**
 * Marketplace → Onboarding (interface.md §5.3): the external ID (hidden until revealed), the
 * principals, the three paths, Connect with the role ARN and the result step by step with the fix
 * for the path the seller used; once connected, the connection and Disconnect (confirmed).
 */
export function mountMarketplaceOnboarding(app: ConsoleApp): void {
  app.get("/app/t/:tenant/marketplace", signedIn(), async (c) => {
    const found = await tenantOf(c);
    return "page" in found ? found.page : onboardingPage(c, found.tenant);
  });
  app.post("/app/t/:tenant/marketplace/connect", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    const form = await c.req.parseBody();
    const roleArn = typeof form.role_arn === "string" ? form.role_arn.trim() : "";
    const answer = await c.get("api")({
      method: "POST",
      path: connectorPath(found.tenant.id),
      body: { role_arn: roleArn },
    });
    if (answer.ok) return c.redirect(pagePath(found.tenant.id, "/marketplace?done=connected"), 303);
    return onboardingPage(c, found.tenant, { roleArn, path: onboardingPathOf(form.path), problem: answer.problem });
  });
  app.post("/app/t/:tenant/marketplace/disconnect", signedIn(), requireCsrf(), async (c) => {
    const found = await tenantOf(c);
    if ("page" in found) return found.page;
    if ((await c.req.parseBody()).confirm !== "yes") return onboardingPage(c, found.tenant);
    const answer = await c.get("api")({ method: "DELETE", path: connectorPath(found.tenant.id) });
    if (!answer.ok) return renderFeatureProblem(c, found.tenant, answer.problem);
    return c.redirect(pagePath(found.tenant.id, "/marketplace"), 303);
  });
}
