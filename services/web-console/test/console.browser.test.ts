import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { CreateStackCommand, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { withConnection } from "@flowstate/shared/db/with-connection";
import { CHROMIUM, chromiumSkipReason as skipReason } from "@flowstate/shared/testing/chromium";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { templateBody } from "../../../deploy/connector-role/deploy.ts";
import { motoSellerAccount } from "../../../deploy/connector-role/moto-account.ts";
import { ensureDatabase, ensurePostgres } from "../../../deploy/local/postgres.ts";
import { type LaunchedStack, launchStack } from "../../../deploy/local/stack-process.ts";
import {
  cumulativeShift,
  currentDocument,
  layoutShift,
  screenshots,
  seriousViolations,
  trackDocuments,
} from "./browser.ts";

/**
 * The seller console in a real browser against `npm start`'s stack (every process, moto, the
 * seller sandbox), driven by accessible names only: a control the test cannot find by its label
 * is an accessibility bug. Every page visited is checked with axe-core (no serious or critical
 * violation), its layout shift measured at 1280 and 390 px (CLS under 0.1), screenshotted at both
 * widths, and searched for an export control (interface 4.1 rule 4: there is none).
 */
if (skipReason) console.warn(`seller console browser tests skipped: ${skipReason}`);

const database = `flowstate_console_e2e_${randomBytes(4).toString("hex")}`;
const adminUrl = (process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test").replace(
  /\/[^/]*$/,
  `/${database}`,
);

const sql = <T = Record<string, unknown>>(q: string, params: unknown[] = []) =>
  withConnection(adminUrl, (em) => em.execute(q, params) as Promise<T[]>);

interface Person {
  name: string;
  email: string;
  password: string;
  context: BrowserContext;
  page: Page;
}

describe.skipIf(skipReason !== null)("the seller console in headless Chromium", () => {
  let stack: LaunchedStack;
  let browser: Browser;
  let gw: string;
  const checked = new Set<string>();
  /** Bytes of HTML + CSS per page kind, printed at the end. */
  const weights = new Map<string, number>();
  /** Cumulative Layout Shift per page kind at 1280 and 390 px, printed at the end. */
  const shifts = new Map<string, [number, number]>();
  /** The page that loads each checked page afresh at phone width to measure its layout shift. */
  let measuring: Page;
  let clsMs = 0;

  /** axe, screenshots and the no-export rule, once per page kind. */
  async function check(page: Page, name: string) {
    if (checked.has(name)) return;
    checked.add(name);
    // No layout shift (issue 22): web vitals' "good" CLS, under 0.1, at both widths: this load (at
    // 1280 px, before anything else touches the page), and the same answer loaded afresh at 390 px.
    const clsStarted = Date.now();
    const cls: [number, number] = [
      await cumulativeShift(page),
      await layoutShift(measuring, await currentDocument(page), 390),
    ];
    assert.ok(cls[0] < 0.1 && cls[1] < 0.1, `${name}: CLS ${cls[0]} at 1280 px, ${cls[1]} at 390 px`);
    shifts.set(name, cls);
    clsMs += Date.now() - clsStarted;
    const violations = await seriousViolations(page);
    assert.deepEqual(
      violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
      [],
      `axe on ${name}`,
    );
    // Page weight: the HTML, the one stylesheet and no script, under 100 KB (issue 22).
    // Fetched from the test, not the page: the page's CSP allows it no fetch at all (connect-src).
    const parts = await page.evaluate(() => ({
      html: document.documentElement.outerHTML.length,
      sheets: [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((l) => l.href),
      scripts: document.scripts.length,
    }));
    let css = 0;
    for (const href of parts.sheets) css += (await (await fetch(href)).text()).length;
    const weight = { html: parts.html, css, scripts: parts.scripts };
    assert.equal(weight.scripts, 0, `${name} has no script`);
    assert.ok(weight.html + weight.css < 100_000, `${name} weighs ${weight.html + weight.css} bytes`);
    weights.set(name, weight.html + weight.css);
    const controls = await page
      // Every control (its name and where it goes), and where every form posts; text around them may
      // mention an export (the notification about one that is ready), offering one may not.
      .locator("a, button, input[type=submit], form")
      .evaluateAll((els) =>
        els.map((e) =>
          e.tagName === "FORM"
            ? (e.getAttribute("action") ?? "")
            : `${e.textContent ?? ""} ${e.getAttribute("href") ?? ""} ${e.getAttribute("formaction") ?? ""}`,
        ),
      );
    assert.deepEqual(
      controls.filter((t) => /export/i.test(t)),
      [],
      `${name} offers no data export (interface 4.1 rule 4)`,
    );
    await screenshots(page, name);
  }

  /** A new person: sign-up on the console, then identity-svc's sign-in page, back on the console. */
  async function signUp(): Promise<Person> {
    const id = randomBytes(4).toString("hex");
    const person = {
      name: `Seller ${id}`,
      email: `seller-${id}@example.com`,
      password: recordSecret(`pw-${randomBytes(12).toString("hex")}`),
    };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    trackDocuments(page);
    await page.goto(`${gw}/app`);
    await check(page, "landing");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await check(page, "sign-up");
    await page.getByLabel("Your name").fill(person.name);
    await page.getByLabel("E-mail address").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await signIn({ ...person, context, page });
    return { ...person, context, page };
  }

  async function signIn(p: Person) {
    await p.page.getByRole("heading", { name: "Sign in to continue" }).waitFor();
    assert.match(await p.page.locator("main").innerText(), /Flowstate console/);
    await p.page.getByLabel("E-mail address").fill(p.email);
    await p.page.getByLabel("Password").fill(p.password);
    await p.page.getByRole("button", { name: "Sign in" }).click();
    await p.page.getByRole("heading", { name: "Your tenants" }).waitFor();
  }

  async function createTenant(p: Person, name: string): Promise<string> {
    await p.page.goto(`${gw}/app/tenants`);
    await p.page.getByLabel("Tenant name").fill(name);
    await p.page.getByRole("button", { name: "Create tenant" }).click();
    await p.page.getByRole("heading", { name }).waitFor();
    return new URL(p.page.url()).pathname.split("/")[3]!;
  }

  /** A link of the main navigation, by its name. */
  const nav = (page: Page, name: string) =>
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();

  /** Settings → Features: AWS Marketplace offers on. */
  async function turnOffersOn(p: Person, tenantId: string) {
    await p.page.goto(`${gw}/app/t/${tenantId}/settings/features`);
    await p.page.getByRole("button", { name: "Turn on AWS Marketplace offers" }).click();
    await p.page.getByRole("status").waitFor();
  }

  /**
   * Marketplace → Onboarding as a seller walks it: follow the CloudFormation quick-create button
   * (its template and parameters, deployed into a fresh seller account of the emulator, as the AWS
   * console would), then type the stack's RoleArn output and connect.
   */
  async function connect(p: Person, tenantId: string, version: "current" | "legacy" = "current") {
    await p.page.goto(`${gw}/app/t/${tenantId}`);
    await nav(p.page, "Onboarding");
    await p.page.getByRole("heading", { name: "Marketplace onboarding" }).waitFor();
    assert.equal(await p.page.locator("#external-id-value").isVisible(), false, "the external ID is hidden at first");
    const before = await p.page.locator("main").innerText();
    await p.page.getByText("Show the external ID").click();
    const externalId = recordSecret(await p.page.locator("#external-id-value").innerText());
    assert.match(externalId, /^[0-9a-f-]{36}$/);
    assert.ok(
      !before.includes(externalId),
      "nowhere on the page until revealed (snippet and steps say <your external ID>)",
    );
    await check(p.page, "onboarding");
    const href = await p.page
      .getByRole("link", { name: "Launch the stack in AWS CloudFormation" })
      .getAttribute("href");
    const link = new URLSearchParams(new URL(href!).hash.split("?")[1]);
    assert.equal(link.get("param_ExternalId"), externalId);
    const seller = await motoSellerAccount(stack.awsEndpoint);
    await seller.cloudformation.send(
      new CreateStackCommand({
        StackName: link.get("stackName")!,
        // `legacy`: the template of stacks deployed before 2026-08-31 (no SearchAgreements, no Seller).
        TemplateBody:
          version === "legacy" ? templateBody("legacy") : await (await fetch(link.get("templateURL")!)).text(),
        Parameters: [
          { ParameterKey: "FlowstatePrincipalArns", ParameterValue: link.get("param_FlowstatePrincipalArns")! },
          { ParameterKey: "ExternalId", ParameterValue: externalId },
        ],
        Capabilities: ["CAPABILITY_NAMED_IAM"],
      }),
    );
    const { Stacks } = await seller.cloudformation.send(
      new DescribeStacksCommand({ StackName: link.get("stackName")! }),
    );
    const roleArn = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === "RoleArn")?.OutputValue;
    assert.ok(roleArn, "the stack's RoleArn output");
    await p.page.getByLabel("Role ARN").fill(roleArn);
    await p.page.getByLabel("AWS CloudFormation (quick-create)").check();
    await p.page.getByRole("button", { name: "Connect" }).click();
    assert.match(await p.page.getByRole("status").innerText(), /Connected: every check passed/);
    return { roleArn, accountId: seller.accountId };
  }

  /** Follows a change set's progress page ("Check again" while AWS applies it) until it ends; answers how it ended. */
  async function changeOutcome(page: Page): Promise<string> {
    for (let i = 0; i < 10; i++) {
      const title = await page.getByRole("heading", { level: 1 }).innerText();
      if (!/in progress/.test(title)) return title.split(": ")[1]!;
      await page.getByRole("link", { name: "Check again" }).click();
    }
    throw new Error("the change set did not end");
  }

  /** The visible text of the page's main landmark, without request ids (they differ per request). */
  const mainText = async (page: Page) =>
    (await page.locator("main").innerText()).replace(/req_[A-Za-z0-9_-]+|[0-9a-f-]{36}/g, "<id>");

  beforeAll(async () => {
    await ensurePostgres(adminUrl);
    await ensureDatabase(adminUrl);
    stack = await launchStack(
      { DATABASE_URL: adminUrl, LOG_LEVEL: "warn", FLOWSTATE_HEALTH_TIMEOUT_SECONDS: "240" },
      420_000,
    );
    const down = Object.entries(stack.services).filter(([, s]) => !s.healthy);
    assert.deepEqual(
      down.map(([n]) => n),
      [],
      stack.output(),
    );
    gw = stack.services["edge-gateway"]!.url;
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ["--no-sandbox"] });
    measuring = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
  }, 480_000);
  afterAll(async () => {
    if (weights.size)
      console.info(
        `page weight (HTML + CSS, bytes): ${[...weights].map(([n, w]) => `${n} ${w}`).join(", ")}; heaviest ${Math.max(...weights.values())}`,
      );
    if (shifts.size)
      console.info(
        `CLS at 1280/390 px (measured in ${clsMs} ms): ${[...shifts].map(([n, [a, b]]) => `${n} ${a.toFixed(3)}/${b.toFixed(3)}`).join(", ")}; worst ${Math.max(...[...shifts.values()].flat()).toFixed(3)}`,
      );
    await browser?.close();
    await stack?.stop();
  });

  it("has an axe check that finds a serious violation on a page made to have one", async () => {
    const page = await browser.newPage();
    await page.setContent("<html><body><main><input id=x><img src=x.png></main></body></html>");
    const found = (await seriousViolations(page)).map((v) => v.id);
    assert.ok(found.includes("label") && found.includes("image-alt"), found.join(", "));
    await page.close();
  });

  it("has a layout-shift measurement that sees a page made to shift", async () => {
    // A block pushed down after the first frames: the measurement must see it (a CLS well over 0.1).
    const shifting = {
      url: `${gw}/app/layout-shift-probe`,
      status: 200,
      headers: { "content-type": "text/html; charset=UTF-8" },
      body: Buffer.from(
        `<!doctype html><html><body><div id="b" style="height:600px;background:#ccc">block</div><script>requestAnimationFrame(() => requestAnimationFrame(() => document.body.insertAdjacentHTML("afterbegin", '<div style="height:300px"></div>')))</script></body></html>`,
      ),
    };
    const still = {
      ...shifting,
      body: Buffer.from(`<!doctype html><html><body><div style="height:600px">block</div></body></html>`),
    };
    assert.ok((await layoutShift(measuring, shifting, 1280)) > 0.1);
    assert.equal(await layoutShift(measuring, still, 390), 0);
  });

  it("npm start prints the console's URL", () => {
    assert.match(stack.output(), new RegExp(`Console\\s+${gw.replace(/[.:/]/g, "\\$&")}/app`));
  });

  it("signs up, signs in on identity-svc's page, creates a tenant and turns AWS Marketplace offers on", async () => {
    const p = await signUp();
    await check(p.page, "tenants-empty");
    const tenantId = await createTenant(p, `Acme ${randomBytes(2).toString("hex")}`);
    assert.match(await p.page.getByRole("status").innerText(), /tenant was created/);
    await check(p.page, "tenant-home");
    await p.page.getByRole("link", { name: "Settings → Features" }).click();
    await p.page.getByRole("heading", { name: "Settings → Features" }).waitFor();
    await check(p.page, "features");
    // Keyboard only: the first Tab reaches the skip link, which moves focus to the content; the
    // switch is reached by Tab and pressed with Enter.
    await p.page.keyboard.press("Tab");
    assert.equal(await p.page.evaluate(() => document.activeElement?.textContent), "Skip to content");
    await p.page.keyboard.press("Enter");
    assert.equal(await p.page.evaluate(() => document.activeElement?.id), "main");
    for (let i = 0; i < 10; i++) {
      await p.page.keyboard.press("Tab");
      if ((await p.page.evaluate(() => document.activeElement?.textContent)) === "Turn on AWS Marketplace offers")
        break;
    }
    await p.page.keyboard.press("Enter");
    assert.match(await p.page.getByRole("status").innerText(), /offers are on/);
    assert.ok(await p.page.getByRole("button", { name: "Turn off AWS Marketplace offers" }).isVisible());
    await p.page.getByRole("link", { name: "Account" }).click();
    await p.page.getByRole("heading", { name: "Account" }).waitFor();
    await check(p.page, "account");
    const [flags] = await sql<{ enabled: boolean }>(
      `SELECT enabled FROM identity.feature_flag WHERE tenant_id = ? AND flag = 'marketplace_offers'`,
      [tenantId],
    );
    assert.equal(flags?.enabled, true);
    // The cookie: HttpOnly, Secure (browsers keep Secure cookies on http://127.0.0.1), SameSite=Lax.
    const cookie = (await p.context.cookies(gw)).find((c) => c.name === "__Host-flowstate-console");
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.secure, true);
    assert.equal(cookie.sameSite, "Lax");
    // Tokens are sealed at rest: the row holds neither the access token's header nor the refresh token's prefix.
    const rows = await sql<{ tokens: Buffer }>("SELECT tokens FROM web_console.console_session");
    assert.ok(rows.length > 0);
    for (const r of rows) assert.doesNotMatch(Buffer.from(r.tokens).toString("latin1"), /eyJ|ort_/);

    // Settings → Name: rename the tenant (PATCH /v1/tenants/{id}) by clicking and typing.
    await p.page.goto(`${gw}/app/t/${tenantId}`);
    await nav(p.page, "Settings");
    await p.page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Name" }).click();
    await p.page.getByRole("heading", { name: "Settings → Name" }).waitFor();
    await check(p.page, "settings-name");
    const renamed = `Renamed ${randomBytes(2).toString("hex")}`;
    // A name the API refuses (a bidi override, FreeText): its reason above the form, what was typed kept, nothing renamed.
    await p.page.getByLabel("Tenant name").fill("Evil\u202Ename");
    await p.page.getByRole("button", { name: "Rename tenant" }).click();
    assert.match(await p.page.getByRole("alert").innerText(), /VALIDATION_FAILED · request id req_/);
    assert.equal(await p.page.getByLabel("Tenant name").inputValue(), "Evil\u202Ename");
    await check(p.page, "settings-name-error");
    await p.page.getByLabel("Tenant name").fill(renamed);
    await p.page.getByRole("button", { name: "Rename tenant" }).click();
    assert.match(await p.page.getByRole("status").innerText(), /tenant was renamed/);
    assert.match(await p.page.locator(".context").innerText(), new RegExp(`Acting in ${renamed}`));
    // The same post without the page's CSRF token is refused and renames nothing.
    const sessionCookie = (await p.context.cookies(gw)).map((c) => `${c.name}=${c.value}`).join("; ");
    const forged = await fetch(`${gw}/app/t/${tenantId}/settings/name`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: sessionCookie, origin: gw, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Forged" }).toString(),
    });
    assert.equal(forged.status, 403);
    const [named] = await sql<{ name: string }>("SELECT name FROM identity.tenant WHERE id = ?", [tenantId]);
    assert.equal(named?.name, renamed);
    await p.context.close();
  });

  it("the journey: sign-up, a connected tenant, a released private offer and the agreements, by clicking and typing", async () => {
    const p = await signUp();
    const tenantId = await createTenant(p, `Journey ${randomBytes(2).toString("hex")}`);
    await turnOffersOn(p, tenantId);
    await connect(p, tenantId);
    await check(p.page, "onboarding-connected");
    await p.page.getByRole("link", { name: "Check the connection's health" }).click();
    await p.page.getByRole("heading", { name: "Connection health" }).waitFor();
    assert.match(await p.page.locator("main").innerText(), /Overall: Healthy/);
    await check(p.page, "health");
    await nav(p.page, "Products");
    await p.page.getByRole("heading", { name: "Products" }).waitFor();
    await check(p.page, "products");

    await nav(p.page, "Offers");
    await p.page.getByRole("heading", { name: "Offers" }).waitFor();
    await check(p.page, "offers-empty");
    await p.page.getByRole("link", { name: "Create offer" }).click();
    await p.page.getByRole("heading", { name: "Create a private offer" }).waitFor();
    // The payout currencies when the API determines them; otherwise every currency, with the notice saying why.
    const currencies = await p.page.getByLabel("Currency").locator("option").allInnerTexts();
    if (await p.page.locator("#currency-notice").count()) {
      assert.match(await p.page.locator("#currency-notice").innerText(), /could not be determined/);
      assert.deepEqual(currencies, ["USD", "EUR", "GBP", "AUD", "JPY"]);
    } else {
      assert.ok(currencies.length > 0 && currencies.every((x) => ["USD", "EUR", "GBP", "AUD", "JPY"].includes(x)));
    }
    await check(p.page, "offer-form");
    const publicProduct = (await p.page.getByLabel("Product").locator("option").allInnerTexts()).find((t) =>
      /\(Public\)/.test(t),
    )!;
    await p.page.getByLabel("Product").selectOption({ label: publicProduct });
    const name = `Acme annual ${randomBytes(2).toString("hex")}`;
    await p.page.getByLabel("Offer name").fill(name);
    await p.page.getByLabel("Description").fill("Twelve months of Acme for one buyer");
    await p.page.getByLabel("Buyer AWS account IDs").fill("444455556666");
    await p.page.getByLabel("Currency").selectOption(currencies[0]!);
    await p.page.getByLabel("Upfront price").fill("0.00");
    await p.page.getByLabel("Dimension key").fill("BasicService");
    await p.page.getByLabel("Contract duration").selectOption({ label: "12 months" });
    await p.page.getByRole("button", { name: "Create offer" }).click();
    // A refused post keeps what was typed and puts the API's field error above its field.
    const refused = await p.page.getByRole("alert").innerText();
    assert.match(refused, /VALIDATION_FAILED · request id req_/);
    const fieldError = await p.page.locator("#dimension-error").innerText();
    const dimension = /\(it has ([^),]+)/.exec(fieldError)?.[1];
    assert.ok(dimension, fieldError);
    assert.equal(await p.page.getByLabel("Offer name").inputValue(), name);
    await check(p.page, "offer-form-error");
    await p.page.getByLabel("Dimension key").fill(dimension);
    await p.page.getByRole("button", { name: "Create offer" }).click();
    await check(p.page, "change-progress");
    assert.equal(await changeOutcome(p.page), "succeeded");
    await p.page.getByRole("link", { name: "Open the offer" }).click();
    await p.page.getByRole("heading", { name }).waitFor();
    await check(p.page, "offer-draft");
    await p.page.getByRole("button", { name: "Release offer" }).click();
    assert.equal(await changeOutcome(p.page), "succeeded");
    await check(p.page, "change-succeeded");
    await p.page.getByRole("link", { name: "Open the offer" }).click();
    await p.page.getByRole("heading", { name }).waitFor();
    assert.match(await p.page.locator("main").innerText(), /State\s+released/);
    await check(p.page, "offer-released");
    const offerId = new URL(p.page.url()).pathname.split("/").at(-1)!;
    await nav(p.page, "Offers");
    assert.ok(await p.page.getByRole("link", { name }).isVisible(), "the list shows the released offer");
    await check(p.page, "offers");
    await p.page.goto(`${gw}/app/t/${tenantId}/partner`);
    await p.page.getByRole("heading", { name: "Partner" }).waitFor();
    await check(p.page, "partner");
    await nav(p.page, "Agreements");
    await p.page.getByRole("heading", { name: "Agreements" }).waitFor();
    assert.ok(await p.page.getByRole("table").isVisible(), "the agreements list");
    // Their freshness: when the agreement watch last read them from the seller's account.
    const asOf = p.page.locator("#agreements-as-of");
    assert.match(
      await asOf.innerText(),
      /^As of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, as last read from your AWS account/,
    );
    const syncedAt = Date.parse((await asOf.locator("time").getAttribute("datetime"))!);
    assert.ok(Math.abs(Date.now() - syncedAt) < 10 * 60_000, "synced within the watch's interval");
    await check(p.page, "agreements");

    // Clone the released offer, then expire the original (confirmed), each followed to its end.
    await p.page.goto(`${gw}/app/t/${tenantId}/offers/${offerId}`);
    await p.page.getByRole("button", { name: "Clone offer" }).click();
    assert.equal(await changeOutcome(p.page), "succeeded");
    await p.page.goto(`${gw}/app/t/${tenantId}/offers/${offerId}`);
    await p.page.getByLabel("I understand buyers can no longer accept it").check();
    await p.page.getByRole("button", { name: "Expire offer" }).click();
    assert.equal(await changeOutcome(p.page), "succeeded");

    // Another tenant's offer id in a URL answers exactly like a missing one.
    const other = await signUp();
    const otherTenant = await createTenant(other, `Other ${randomBytes(2).toString("hex")}`);
    await turnOffersOn(other, otherTenant);
    await connect(other, otherTenant);
    const seen: { status: number; text: string }[] = [];
    for (const id of [offerId, "offer-doesnotexist0000"]) {
      const answer = await other.page.goto(`${gw}/app/t/${otherTenant}/offers/${id}`);
      seen.push({ status: answer!.status(), text: await mainText(other.page) });
    }
    assert.equal(seen[0]!.status, 404);
    assert.deepEqual(seen[0], seen[1]);
    // Disconnect, confirmed: the onboarding page is back, ready to connect again.
    await nav(other.page, "Onboarding");
    await other.page.getByLabel("I understand that Flowstate will stop using this role").check();
    await other.page.getByRole("button", { name: "Disconnect" }).click();
    await other.page.getByRole("button", { name: "Connect" }).waitFor();
    await p.context.close();
    await other.context.close();
  });

  it("members and invitations, API keys (the secret shown once), the audit log, activity and MCP clients", async () => {
    const owner = await signUp();
    const tenantId = await createTenant(owner, `Team ${randomBytes(2).toString("hex")}`);
    const invitee = await signUp();
    await owner.page.goto(`${gw}/app/t/${tenantId}`);
    await owner.page.getByRole("link", { name: "Members" }).click();
    await owner.page.getByRole("heading", { name: "Members" }).waitFor();
    await owner.page.getByLabel("E-mail address").fill(invitee.email);
    await owner.page.getByLabel("Role", { exact: true }).selectOption("member");
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /Invitation sent/);
    await check(owner.page, "members");

    await invitee.page.goto(`${gw}/app/account`);
    await invitee.page.getByRole("link", { name: "Invitations" }).click();
    await invitee.page.getByRole("heading", { name: "Invitations" }).waitFor();
    await check(invitee.page, "invitations");
    await invitee.page.getByRole("button", { name: /^Accept the invitation to Team/ }).click();
    assert.match(await invitee.page.getByRole("status").innerText(), /accepted/);

    await owner.page.goto(`${gw}/app/t/${tenantId}/members`);
    await owner.page.getByLabel(`Role of ${invitee.name}`).selectOption("admin");
    await owner.page.getByRole("button", { name: `Change role of ${invitee.name}` }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /role was changed/);
    assert.match(await owner.page.getByRole("row", { name: new RegExp(invitee.name) }).innerText(), /admin/);

    // Ownership transfer: asked by the owner, accepted by the member in Invitations.
    await owner.page.goto(`${gw}/app/t/${tenantId}/ownership`);
    await owner.page.getByLabel("New owner").selectOption({ label: `${invitee.name} (admin)` });
    await owner.page.getByRole("button", { name: "Ask to take over" }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /Transfer asked/);
    await invitee.page.goto(`${gw}/app/invitations`);
    await invitee.page.getByRole("button", { name: /^Accept the invitation to Team/ }).click();
    await invitee.page.goto(`${gw}/app/t/${tenantId}`);
    assert.match(await invitee.page.locator("main").innerText(), /Your role: owner/);

    await owner.page.goto(`${gw}/app/t/${tenantId}/api-keys`);
    await owner.page.getByLabel("Key name").fill("ci");
    await owner.page.getByLabel("Scope").selectOption("read");
    await owner.page.getByRole("button", { name: "Create key" }).click();
    const secret = recordSecret(await owner.page.locator("#new-key-secret").innerText());
    assert.ok(secret.length > 20);
    assert.doesNotMatch(owner.page.url(), new RegExp(secret), "the secret is never in a URL");
    await check(owner.page, "api-key-created");
    await owner.page.goto(`${gw}/app/t/${tenantId}/api-keys`);
    assert.doesNotMatch(await owner.page.locator("main").innerText(), new RegExp(secret), "shown once");
    await check(owner.page, "api-keys");
    await owner.page.getByRole("button", { name: "Revoke ci" }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /revoked/);

    await owner.page.goto(`${gw}/app/t/${tenantId}`);
    await owner.page.getByRole("link", { name: "Audit log" }).click();
    await owner.page.getByRole("heading", { name: "Audit log" }).waitFor();
    await check(owner.page, "audit-log");
    await invitee.page.goto(`${gw}/app/account/activity`);
    await invitee.page.getByRole("heading", { name: "Activity about me" }).waitFor();
    await check(invitee.page, "activity");
    await owner.page.goto(`${gw}/app/account`);
    await owner.page.getByRole("link", { name: "Profile and notifications" }).click();
    await owner.page.getByLabel("Your name").fill(`${owner.name} Renamed`);
    await owner.page.getByRole("button", { name: "Save name" }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /name was saved/);
    await owner.page.getByLabel("Occasional product news").setChecked(true);
    await owner.page.getByRole("button", { name: "Save notification choices" }).click();
    assert.match(await owner.page.getByRole("status").innerText(), /notification choices were saved/);
    assert.equal(await owner.page.getByLabel("Occasional product news").isChecked(), true);
    await check(owner.page, "preferences");
    await owner.page.goto(`${gw}/app/account`);
    await owner.page.getByRole("link", { name: "MCP clients" }).click();
    await owner.page.getByRole("heading", { name: "MCP clients" }).waitFor();
    assert.match(await owner.page.locator("main").innerText(), new RegExp(`${stack.services["mcp-gateway"]!.url}/mcp`));
    await check(owner.page, "mcp-clients");
    await owner.context.close();
    await invitee.context.close();
  });

  it("explains a failed connect step by step, and a legacy role on Health and Agreements", async () => {
    const p = await signUp();
    const tenantId = await createTenant(p, `Legacy ${randomBytes(2).toString("hex")}`);
    await turnOffersOn(p, tenantId);
    await p.page.goto(`${gw}/app/t/${tenantId}/marketplace`);
    await p.page.getByLabel("Role ARN").fill("arn:aws:iam::210987654321:role/MarketplaceConnector");
    await p.page.getByRole("radio", { name: "Terraform" }).check();
    await p.page.getByRole("button", { name: "Connect" }).click();
    const failure = await p.page.getByRole("alert").innerText();
    assert.match(failure, /The role could not be connected/);
    assert.match(failure, /Failed: Flowstate's principal assumes your role/);
    assert.match(failure, /Not run: The role reads your AWS Marketplace catalog/);
    assert.match(failure, /Fix, Terraform:/, "the fix for the path the seller used");
    assert.equal(
      await p.page.getByLabel("Role ARN").inputValue(),
      "arn:aws:iam::210987654321:role/MarketplaceConnector",
    );
    await check(p.page, "connect-failed");

    await connect(p, tenantId, "legacy");
    await p.page.goto(`${gw}/app/t/${tenantId}/marketplace/health`);
    assert.match(await p.page.getByRole("note").innerText(), /Update your connector role/);
    await check(p.page, "health-migration");
    await nav(p.page, "Agreements");
    const note = await p.page.getByRole("note").innerText();
    assert.match(note, /Agreements cannot be listed/);
    assert.ok(await p.page.getByRole("link", { name: "Check the connection's health" }).isVisible());
    await check(p.page, "agreements-legacy");
    await p.context.close();
  });

  it("refreshes an expiring token once under concurrent requests: the grant survives, every page answers", async () => {
    const p = await signUp();
    const cookie = (await p.context.cookies(gw)).map((c) => `${c.name}=${c.value}`).join("; ");
    const sub = (await sql<{ sub: string }>(`SELECT sub FROM identity.app_user WHERE email = ?`, [p.email]))[0]!.sub;
    const [before] = await sql<{ tokens: Buffer }>("SELECT tokens FROM web_console.console_session WHERE sub = ?", [
      sub,
    ]);
    // The access token is about to expire: the next requests must refresh it, and only one may
    // spend the refresh token (identity-svc revokes the whole family when a spent one comes back).
    await sql("UPDATE web_console.console_session SET access_expires_at = now() WHERE sub = ?", [sub]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${gw}/app/tenants`, { headers: { cookie }, redirect: "manual" })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    const [after] = await sql<{ tokens: Buffer; access_expires_at: Date }>(
      "SELECT tokens, access_expires_at FROM web_console.console_session WHERE sub = ?",
      [sub],
    );
    assert.notDeepEqual(Buffer.from(after!.tokens), Buffer.from(before!.tokens), "new tokens sealed");
    assert.ok(new Date(after!.access_expires_at).getTime() > Date.now() + 60_000);
    const spent = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM identity.oauth_refresh_token r JOIN identity.oauth_grant g ON g.sid = r.sid
        WHERE g.sub = ? AND r.spent_at IS NOT NULL`,
      [sub],
    );
    assert.equal(spent[0]?.n, 1, "one refresh for six concurrent requests");
    const live = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM identity.user_session s JOIN identity.oauth_grant g ON g.sid = s.sid
        WHERE g.sub = ? AND s.revoked_at IS NULL`,
      [sub],
    );
    assert.equal(live[0]?.n, 1, "the grant was not revoked");
    await p.context.close();
  });

  it("refuses a post without the page's CSRF token or from another origin, and creates nothing", async () => {
    const p = await signUp();
    const cookie = (await p.context.cookies(gw)).map((c) => `${c.name}=${c.value}`).join("; ");
    const post = (fields: Record<string, string>, origin = gw) =>
      fetch(`${gw}/app/tenants`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const html = await (await fetch(`${gw}/app/tenants`, { headers: { cookie } })).text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(token);
    assert.equal((await post({ name: "No token" })).status, 403);
    assert.equal((await post({ name: "Wrong token", _csrf: `${token.slice(0, -2)}xx` })).status, 403);
    assert.equal((await post({ name: "Cross site", _csrf: token }, "https://evil.example")).status, 403);
    const list = await (await fetch(`${gw}/app/tenants`, { headers: { cookie } })).text();
    assert.doesNotMatch(list, /No token|Wrong token|Cross site/);
    const ok = await post({ name: "With token", _csrf: token });
    assert.equal(ok.status, 303, "the same post with the token goes through");
    // The page's headers: a strict CSP (no script at all), never framed.
    const page = await fetch(`${gw}/app/tenants`, { headers: { cookie } });
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|script-src/);
    await p.context.close();
  });

  it("answers another tenant's id in a URL exactly like a missing one", async () => {
    const owner = await signUp();
    const theirs = await createTenant(owner, `Private ${randomBytes(2).toString("hex")}`);
    const stranger = await signUp();
    const missing = `tnt_${randomBytes(13).toString("hex").slice(0, 26)}`;
    const seen: { status: number; text: string }[] = [];
    for (const id of [theirs, missing]) {
      const answer = await stranger.page.goto(`${gw}/app/t/${id}/settings/features`);
      seen.push({ status: answer!.status(), text: await mainText(stranger.page) });
    }
    await check(stranger.page, "not-found");
    assert.equal(seen[0]!.status, 404);
    assert.deepEqual(seen[0], seen[1]);
    await owner.context.close();
    await stranger.context.close();
  });

  it("deletes an account only for DELETE typed exactly, names owned tenants, re-asks the password after 15 minutes, and refuses the old cookie at once", async () => {
    const p = await signUp();
    const ownedName = `Owned ${randomBytes(2).toString("hex")}`;
    const owned = await createTenant(p, ownedName);
    await p.page.goto(`${gw}/app/account`);
    await p.page.getByRole("link", { name: "Delete account" }).click();
    await p.page.getByRole("heading", { name: "Delete account" }).waitFor();
    await check(p.page, "delete-account");
    for (const typed of ["delete", "Delete ", ""]) {
      await p.page.getByLabel("Type DELETE to confirm").fill(typed);
      await p.page.getByRole("button", { name: "Delete account" }).click();
      assert.match(await p.page.locator("main").innerText(), /Nothing was deleted/, `typed ${JSON.stringify(typed)}`);
    }
    await check(p.page, "delete-account-error");
    const [before] = await sql<{ sub: string; status: string }>(
      `SELECT sub, status FROM identity.app_user WHERE email = ?`,
      [p.email],
    );
    assert.equal(before?.status, "active");

    // The owner case: nothing deleted, the owned tenant listed with a link.
    await p.page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await p.page.getByRole("button", { name: "Delete account" }).click();
    await p.page.getByRole("heading", { name: /You still own a tenant/ }).waitFor();
    assert.ok(await p.page.getByRole("link", { name: new RegExp(owned) }).isVisible());
    await check(p.page, "delete-account-owner");
    // The fix the page links to: the tenant's ownership page, its name typed to delete it.
    await p.page.getByRole("link", { name: new RegExp(owned) }).click();
    await p.page.getByRole("heading", { name: "Ownership", exact: true }).waitFor();
    await check(p.page, "ownership");
    await p.page.getByLabel("Tenant name").fill("not its name");
    await p.page.getByRole("button", { name: "Delete tenant" }).click();
    assert.match(await p.page.locator("main").innerText(), /Nothing was deleted/);
    await p.page.getByLabel("Tenant name").fill(ownedName);
    await p.page.getByRole("button", { name: "Delete tenant" }).click();
    assert.match(await p.page.getByRole("status").innerText(), /tenant was deleted/);

    // The sign-in is 16 minutes old (at identity-svc and in the console): the password is asked first.
    const sixteenMinutesAgo = new Date(Date.now() - 16 * 60_000);
    await sql(
      `UPDATE identity.oauth_grant SET auth_time = ? WHERE sub = (SELECT sub FROM identity.app_user WHERE email = ?)`,
      [sixteenMinutesAgo, p.email],
    );
    await sql(
      `UPDATE web_console.console_session SET signed_in_at = ? WHERE sub = (SELECT sub FROM identity.app_user WHERE email = ?)`,
      [sixteenMinutesAgo, p.email],
    );
    await p.page.goto(`${gw}/app/account/delete`);
    await check(p.page, "delete-account-reauthenticate");
    const cookies = await p.context.cookies(gw);
    await p.page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await p.page.getByLabel("Your password").fill(p.password);
    await p.page.getByRole("button", { name: "Delete account" }).click();
    await p.page.getByRole("heading", { name: "Your account is deleted" }).waitFor();
    await check(p.page, "account-deleted");
    const [after] = await sql<{ status: string }>(`SELECT status FROM identity.app_user WHERE sub = ?`, [before!.sub]);
    assert.equal(after?.status, "deleted");

    // The old session cookie is refused at once: the console sends the browser to sign in.
    await p.context.addCookies(cookies);
    await p.page.goto(`${gw}/app/account`);
    await p.page.getByRole("heading", { name: "Sign in to continue" }).waitFor();
    await p.context.close();
  });

  it("signs out: the grant is revoked at identity-svc and the cookie no longer opens a page", async () => {
    const p = await signUp();
    const cookies = await p.context.cookies(gw);
    const sub = (await sql<{ sub: string }>(`SELECT sub FROM identity.app_user WHERE email = ?`, [p.email]))[0]!.sub;
    await p.page.getByRole("button", { name: "Sign out" }).click();
    await p.page.getByRole("heading", { name: "Signed out" }).waitFor();
    await check(p.page, "signed-out");
    const live = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM identity.user_session s JOIN identity.oauth_grant g ON g.sid = s.sid
        WHERE g.sub = ? AND s.revoked_at IS NULL`,
      [sub],
    );
    assert.equal(live[0]?.n, 0);
    await p.context.addCookies(cookies);
    await p.page.goto(`${gw}/app/tenants`);
    await p.page.getByRole("heading", { name: "Sign in to continue" }).waitFor();
    await p.context.close();
  });
});
