import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TestUser } from "@flowstate/identity-svc/testing/harness";
import { ARTIFACTS, CHROMIUM, chromiumSkipReason as skipReason } from "@flowstate/shared/testing/chromium";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type OAuthStack, startOAuthStack } from "./oauth-stack.ts";

/**
 * The sign-in and consent page in a real browser (Debian's Chromium, `shared/src/testing/chromium.ts`),
 * driven headless by playwright-core. `.ci/run` installs it; where it is missing this suite is
 * skipped and says why. The consent page's screenshot is kept as a test artifact in
 * `$FLOWSTATE_ARTIFACT_DIR` (default `test-artifacts/` at the repository root, git-ignored).
 */
if (skipReason) console.warn(`consent page browser tests skipped: ${skipReason}`);

/** The client's loopback redirect endpoint: records what the browser was sent back with. */
async function startCallback() {
  const seen: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/framer") {
      // Another origin trying to frame the authorization page (clickjacking).
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><title>framer</title><iframe id="f" src="${url.searchParams.get("src")}"></iframe>`);
      return;
    }
    if (url.pathname === "/callback") seen.push(url);
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Signed in</title><p>You can close this window.</p>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.skipIf(skipReason !== null)("the authorization page in headless Chromium", () => {
  let stack: OAuthStack;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  let user: TestUser;
  let tenantName: string;
  let clientId: string;
  const verifier = randomBytes(32).toString("base64url");
  const authorizationUrl = () => {
    const q = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: `${callback.origin}/callback`,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state: "browser-state",
      resource: stack.mcp.resource,
    });
    return `${stack.issuer}/oauth/authorize?${q}`;
  };

  beforeAll(async () => {
    stack = await startOAuthStack("gw_oauth_browser");
    callback = await startCallback();
    user = await stack.identity.signUp();
    tenantName = `Acme Marketplace ${randomBytes(2).toString("hex")}`;
    await stack.identity.createTenant(user, tenantName);
    const registered = await fetch(`${stack.issuer}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Claude Desktop (test)", redirect_uris: ["http://127.0.0.1/callback"] }),
    });
    clientId = ((await registered.json()) as { client_id: string }).client_id;
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await stack?.close();
  });

  it("signs in, names the client, scopes and tenant on the consent page, and returns a code to the client", async () => {
    const page = await browser.newPage({ viewport: { width: 720, height: 900 } });
    await page.goto(authorizationUrl());
    await page.getByRole("heading", { name: "Sign in to continue" }).waitFor();
    assert.match(await page.locator("main").innerText(), /Claude Desktop \(test\)/);
    await page.getByLabel("E-mail address").fill(user.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    assert.match(await page.getByRole("alert").innerText(), /e-mail address or the password is wrong/);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.getByRole("heading", { name: "Allow access?" }).waitFor();
    const aria = await page.locator("main").ariaSnapshot();
    assert.match(aria, /Claude Desktop \(test\)/, "names the client");
    for (const scope of ["marketplace:read", "marketplace:write", "account"]) assert.match(aria, new RegExp(scope));
    assert.match(aria, /group "Claude Desktop \(test\) will be able to"/, "the scopes are one labelled group");
    assert.match(aria, /combobox "Tenant it acts in"/, "the tenant choice is labelled");
    assert.equal(
      await page.getByLabel("Tenant it acts in").locator("option:checked").innerText(),
      `${tenantName} (owner)`,
    );
    assert.ok(await page.getByRole("button", { name: "Allow" }).isVisible());
    assert.ok(await page.getByRole("button", { name: "Deny" }).isVisible());
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "oauth-consent-page.png"), fullPage: true });

    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${callback.origin}/callback?**`);
    const back = callback.seen.at(-1)!;
    assert.equal(back.searchParams.get("state"), "browser-state");
    assert.equal(back.searchParams.get("iss"), stack.issuer);
    const token = await fetch(`${stack.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: `${callback.origin}/callback`,
        client_id: clientId,
        code_verifier: verifier,
      }).toString(),
    });
    assert.equal(token.status, 200);
    await page.close();
  });

  it("cannot be framed by another origin", async () => {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on("console", (m) => refused.push(m.text()));
    await page.goto(`${callback.origin}/framer?src=${encodeURIComponent(authorizationUrl())}`);
    await page.waitForTimeout(500);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(frame, "the iframe exists");
    assert.notEqual(new URL(frame.url()).origin, stack.issuer, "the authorization page did not load in the frame");
    assert.equal(await frame.locator("input[type=password]").count(), 0);
    assert.ok(
      refused.some((t) => /frame-ancestors|Refused to (display|frame)/i.test(t)),
      refused.join("\n"),
    );
    await page.close();
  });

  it("lets a person with no tenant grant the account scope, says what was left out, and keeps the device cookie", async () => {
    const loner = await stack.identity.signUp();
    const context = await browser.newContext();
    const page = await context.newPage();
    // A stock MCP client asks for every scope the resource metadata lists.
    const url = new URL(authorizationUrl());
    url.searchParams.set("scope", "marketplace:read marketplace:write account");
    await page.goto(url.href);
    await page.getByLabel("E-mail address").fill(loner.email);
    await page.getByLabel("Password").fill(loner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Allow access?" }).waitFor();
    const main = await page.locator("main").innerText();
    assert.match(main, /Left out: marketplace:read, marketplace:write/);
    assert.match(main, /not a member of any tenant/);
    const granted = await page.getByRole("group").innerText();
    assert.match(granted, /account/);
    assert.doesNotMatch(granted, /marketplace:/);
    // The sign-in set the device cookie, HttpOnly and Secure, through the gateway.
    const cookie = (await context.cookies(stack.issuer)).find((c) => c.name === "__Host-flowstate-device");
    assert.ok(cookie, "the device cookie is kept by the browser");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.secure, true);
    assert.equal(cookie.sameSite, "Strict");

    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${callback.origin}/callback?**`);
    const back = callback.seen.at(-1)!;
    const token = await fetch(`${stack.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: `${callback.origin}/callback`,
        client_id: clientId,
        code_verifier: verifier,
      }).toString(),
    });
    assert.equal(token.status, 200);
    assert.equal(((await token.json()) as { scope: string }).scope, "account");

    // A stranger's guesses hold the account (a wrong REST sign-in, its block stretched to an hour)...
    const guess = await fetch(`${stack.issuer}/v1/auth/signin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: loner.email, password: "a stranger's guess" }),
    });
    assert.equal(guess.status, 401);
    await stack.identity.db.orm.em
      .fork()
      .execute(`UPDATE "${stack.identity.db.schema}".sign_in_throttle SET blocked_until = now() + interval '1 hour'`);
    // ...but the browser's device cookie reaches identity-svc through the gateway, and lets it in.
    await page.goto(url.href);
    await page.getByLabel("E-mail address").fill(loner.email);
    await page.getByLabel("Password").fill(loner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Allow access?" }).waitFor();
    const elsewhere = await browser.newPage();
    await elsewhere.goto(url.href);
    await elsewhere.getByLabel("E-mail address").fill(loner.email);
    await elsewhere.getByLabel("Password").fill(loner.password);
    await elsewhere.getByRole("button", { name: "Sign in" }).click();
    assert.match(await elsewhere.getByRole("alert").innerText(), /Too many failed sign-ins/);
    await elsewhere.close();
    await context.close();
  });
});
