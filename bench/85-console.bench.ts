/**
 * (issue 22) The seller console's pages on the whole local stack (launchStack, as `npm start`), with
 * one tenant onboarded as a seller does it (flag on, the connector stack deployed in a seller
 * account of the emulator, connected) and one private offer created through the API.
 *
 * - Server time: each page GET through the edge gateway with a console session (signed in through
 *   identity-svc's page by the authorization-code flow, as a browser does), against the same API
 *   calls made straight to the gateway with the same user's token, one after the other. Which calls
 *   a page makes is read from its own Server-Timing header (web-console lists each call it made), so
 *   the comparison follows the page as it is. Page and calls alternate, one at a time (latency, not
 *   throughput). The row is the page's server time, the console's own account of it (Server-Timing
 *   `page`: session, API calls, rendering), p50, against the p50 of its calls' sum straight to the
 *   gateway; target under 2×. The name also gives what the browser waits for the page, which adds
 *   the gateway's relay hop (Hono's path, ADR 0015) in front of the console.
 * - Page weight: the page's HTML plus every stylesheet and script it links, fetched as a browser
 *   would; target under 100 KB per page.
 */
import { launchStack } from "../deploy/local/stack-process.ts";
import { median } from "./lib/median.ts";
import { benchDatabase, call, onboardSeller, unlimitedAnonymousEnv, unlimitedRatesEnv } from "./lib/setup.ts";
import type { BenchRow } from "./lib/types.ts";

const SAMPLES = 15;
const WARMUP = 3;

/** A browser's cookies for one origin: name → value, from every Set-Cookie seen. */
class CookieJar {
  private readonly jar = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
  get header() {
    return [...this.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  }
}

/**
 * A console session the way a browser gets one: /app/signin → identity-svc's sign-in page → its
 * form posted → the callback, which sets the session cookie. Answers the Cookie header to send.
 */
async function consoleSession(gw: string, email: string, password: string): Promise<string> {
  const jar = new CookieJar();
  const get = async (url: string) => {
    const res = await fetch(new URL(url, gw), { headers: { cookie: jar.header }, redirect: "manual" });
    jar.take(res);
    return res;
  };
  const toAuthorize = await get("/app/signin");
  const signInPage = await get(toAuthorize.headers.get("location")!);
  const html = await signInPage.text();
  if (signInPage.status !== 200) throw new Error(`sign-in page: ${signInPage.status} ${html.slice(0, 200)}`);
  const fields: Record<string, string> = { email, password };
  for (const m of html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!;
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? "/oauth/authorize/signin";
  const signedIn = await fetch(new URL(action, gw), {
    method: "POST",
    headers: { cookie: jar.header, origin: gw, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  jar.take(signedIn);
  if (signedIn.status !== 303) throw new Error(`sign-in: ${signedIn.status} ${(await signedIn.text()).slice(0, 200)}`);
  const callback = await get(signedIn.headers.get("location")!);
  if (callback.status !== 303 || !jar.header.includes("__Host-flowstate-console="))
    throw new Error(`callback: ${callback.status} ${(await callback.text()).slice(0, 200)}`);
  return jar.header;
}

/** The API calls a console page made, from its Server-Timing header (`api;dur=…;desc="GET /v1/…"`). */
function apiCallsOf(res: Response): { method: string; path: string }[] {
  const header = res.headers.get("server-timing") ?? "";
  return [...header.matchAll(/(?:^|,\s*)api;dur=[\d.]+;desc="([A-Z]+) ([^"]+)"/g)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
  }));
}

/** Bytes of the page's HTML plus every stylesheet and script it links (what a browser downloads for it). */
async function pageWeight(gw: string, html: string): Promise<{ html: number; css: number; js: number }> {
  const fetched = async (urls: string[]) => {
    let n = 0;
    for (const u of urls) n += (await (await fetch(new URL(u, gw))).arrayBuffer()).byteLength;
    return n;
  };
  const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  const js = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
  return { html: Buffer.byteLength(html), css: await fetched(css), js: await fetched(js) };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export default async function consoleBench(): Promise<BenchRow[]> {
  const databaseUrl = await benchDatabase();
  const stack = await launchStack(
    { DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...unlimitedRatesEnv, ...unlimitedAnonymousEnv },
    240_000,
  );
  try {
    const gw = stack.services["edge-gateway"]!.url;
    const seller = await onboardSeller(gw, stack.awsEndpoint);
    const { token, tenantId, tenant } = seller;
    const M = `${tenant}/integrations/marketplace`;
    await call("POST", M, token, { role_arn: seller.roleArn });

    // One private offer, so the offer and change pages have something to show (the dimension key
    // the product has, when BasicService is not one: the API's field error names them).
    const products = (await call("GET", `${M}/products`, token)).products as { id: string; visibility: string }[];
    const productId = products.find((p) => p.visibility === "Public")!.id;
    const offer = async (dimension: string) =>
      fetch(`${M}/offers`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          product_id: productId,
          name: "Bench offer",
          description: "Bench",
          buyer_accounts: ["444455556666"],
          pricing: { model: "contract", currency: "USD", price: "0.00", dimensions: [{ key: dimension }] },
          legal_terms: { eula: { type: "standard" } },
          validity: { duration: "P12M" },
          availability_end_date: day(30),
        }),
      });
    let created = await offer("BasicService");
    if (created.status === 400) {
      const dimension = /\(it has ([^),]+)/.exec(await created.text())?.[1];
      created = await offer(dimension ?? "BasicService");
    }
    if (!created.ok) throw new Error(`create offer: ${created.status} ${await created.text()}`);
    const changeSetId = ((await created.json()) as { change_set_id: string }).change_set_id;
    let offerId: string | undefined;
    for (let i = 0; i < 120 && !offerId; i++) {
      const change = (await call("GET", `${M}/changes/${changeSetId}`, token)) as {
        status: string;
        offer_id?: string;
      };
      if (change.status === "succeeded") offerId = change.offer_id;
      else if (["failed", "cancelled"].includes(change.status)) throw new Error(`the offer's change ${change.status}`);
      else await new Promise((r) => setTimeout(r, 500));
    }
    if (!offerId) throw new Error("the offer's change did not end");

    const cookie = await consoleSession(gw, seller.email, seller.password);
    const t = `/app/t/${tenantId}`;
    const pages: { name: string; path: string; anonymous?: boolean }[] = [
      { name: "landing", path: "/app", anonymous: true },
      { name: "sign-up", path: "/app/signup", anonymous: true },
      { name: "tenants", path: "/app/tenants" },
      { name: "tenant home", path: t },
      { name: "settings: features", path: `${t}/settings/features` },
      { name: "settings: name", path: `${t}/settings/name` },
      { name: "members", path: `${t}/members` },
      { name: "API keys", path: `${t}/api-keys` },
      { name: "audit log", path: `${t}/audit` },
      { name: "ownership", path: `${t}/ownership` },
      { name: "onboarding", path: `${t}/marketplace` },
      { name: "health", path: `${t}/marketplace/health` },
      { name: "products", path: `${t}/products` },
      { name: "offers", path: `${t}/offers` },
      { name: "offer form", path: `${t}/offers/new` },
      { name: "offer", path: `${t}/offers/${offerId}` },
      { name: "change", path: `${t}/changes/${changeSetId}` },
      { name: "agreements", path: `${t}/agreements` },
      { name: "partner", path: `${t}/partner` },
      { name: "account", path: "/app/account" },
      { name: "invitations", path: "/app/invitations" },
      { name: "activity", path: "/app/account/activity" },
      { name: "MCP clients", path: "/app/account/mcp" },
      { name: "preferences", path: "/app/account/preferences" },
      { name: "delete account", path: "/app/account/delete" },
    ];

    const rows: BenchRow[] = [];
    const weights: BenchRow[] = [];
    for (const page of pages) {
      const headers: Record<string, string> = page.anonymous ? {} : { cookie };
      const getPage = () => fetch(`${gw}${page.path}`, { headers, redirect: "manual" });
      const first = await getPage();
      const html = await first.text();
      if (first.status !== 200) throw new Error(`${page.path}: ${first.status} ${html.slice(0, 300)}`);
      const weight = await pageWeight(gw, html);
      const kb = (weight.html + weight.css + weight.js) / 1024;
      weights.push({
        name: `web-console: ${page.name} page weight (HTML ${weight.html} + CSS ${weight.css} + JS ${weight.js} bytes)`,
        value: Math.round(kb * 10) / 10,
        unit: "KB",
        target: "< 100 KB",
        met: kb < 100,
      });
      if (page.anonymous) continue;
      const calls = apiCallsOf(first);
      const direct = async () => {
        for (const c of calls) {
          const res = await fetch(`${gw}${c.path}`, {
            method: c.method,
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${c.method} ${c.path}: ${res.status}`);
        }
      };
      const timed = async (f: () => Promise<unknown>) => {
        const started = performance.now();
        await f();
        return performance.now() - started;
      };
      // The console's own account of each request (Server-Timing): its handler time and its calls' time.
      const inside: { page: number; api: number }[] = [];
      const pageOnce = async () => {
        const res = await getPage();
        await res.text();
        if (res.status !== 200) throw new Error(`${page.path}: ${res.status}`);
        const timing = res.headers.get("server-timing") ?? "";
        const durs = (name: string) =>
          [...timing.matchAll(new RegExp(`(?:^|,\\s*)${name};dur=([\\d.]+)`, "g"))].map((m) => Number(m[1]));
        inside.push({ page: durs("page")[0] ?? 0, api: durs("api").reduce((a, b) => a + b, 0) });
      };
      for (let i = 0; i < WARMUP; i++) {
        await pageOnce();
        await direct();
      }
      const p: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        p.push(await timed(pageOnce));
        d.push(await timed(direct));
      }
      const [browserMs, callsMs] = [median(p), median(d)];
      // Server time is the console's own account (Server-Timing `page`: the session, the page's API
      // calls, the rendering); what a browser waits adds the gateway's relay hop in front of it.
      const serverMs = median(inside.map((x) => x.page));
      const consoleApi = median(inside.map((x) => x.api));
      const shown = (ms: number) => Math.round(ms * 100) / 100;
      process.stderr.write(
        `  ${page.name}: server p50 ${serverMs.toFixed(1)} ms (its calls as the console timed them ${consoleApi.toFixed(1)}), as the browser waits ${browserMs.toFixed(1)} ms (${(browserMs / callsMs).toFixed(2)}×); its ${calls.length} API call(s) straight to the gateway p50 ${callsMs.toFixed(1)} ms (${calls.map((c) => `${c.method} ${c.path.replace(tenantId, "{id}")}`).join(", ")})\n`,
      );
      const pageName = `web-console: GET ${page.path.replace(tenantId, "{id}").replace(offerId, "{offer}").replace(changeSetId, "{change}")} p50 server time (browser waits ${browserMs.toFixed(1)} ms via the gateway)`;
      // A page that makes no API call (Delete account: the sign-in's age is the session's) has no baseline.
      if (!calls.length) {
        rows.push({ name: `${pageName}, no API call`, value: shown(serverMs), unit: "ms" });
        continue;
      }
      rows.push({
        name: pageName,
        value: shown(serverMs),
        unit: "ms",
        baseline: {
          name: `its ${calls.length} API call(s) straight to the gateway, p50 of the sum`,
          value: shown(callsMs),
        },
        ratio: serverMs / callsMs,
        target: "< 2× its API calls",
        met: serverMs < 2 * callsMs,
      });
    }
    return [...rows, ...weights];
  } finally {
    await stack.stop();
  }
}
