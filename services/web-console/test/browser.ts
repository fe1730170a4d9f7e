import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ARTIFACTS } from "@flowstate/shared/testing/chromium";
import type { Page, Response } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core run in the page (evaluated over the DevTools protocol, so the page's CSP, which forbids
 * every script, stays on): the serious and critical violations, WCAG 2.1 A and AA rules.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(o: unknown): Promise<unknown> } }).axe.run({
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    }),
  )) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Screenshots of the page at laptop (1280) and phone (390) widths, named after `name`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, `console-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

/** A page's answer as the browser got it: replayed by `layoutShift` for a fresh load at another width. */
export interface PageDocument {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const lastDocuments = new WeakMap<Page, Response>();

/** Remembers the page's main-frame document answers (not the redirects), for `currentDocument`. */
export function trackDocuments(page: Page): void {
  page.on("response", (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    if (response.status() >= 300 && response.status() < 400) return;
    lastDocuments.set(page, response);
  });
}

/** The answer the page shows now (a GET's, or a refused post's re-rendered form), as it came from the server. */
export async function currentDocument(page: Page): Promise<PageDocument> {
  const response = lastDocuments.get(page);
  const headers: Record<string, string> = { "content-type": "text/html; charset=UTF-8" };
  if (!response) return { url: page.url(), status: 200, headers, body: Buffer.from(await page.content()) };
  const csp = await response.headerValue("content-security-policy");
  if (csp) headers["content-security-policy"] = csp;
  return { url: response.url(), status: response.status(), headers, body: await response.body() };
}

/**
 * Cumulative Layout Shift of the document `page` shows, since it started loading (web vitals'
 * definition: the largest session window of `layout-shift` entries without recent input, gaps
 * under 1 s, windows up to 5 s), read by a buffered PerformanceObserver in the page (evaluated over
 * the DevTools protocol, so the page's CSP stays on); "good" is under 0.1.
 */
export function cumulativeShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let largest = 0;
        let current = 0;
        let first = 0;
        let last = 0;
        const add = (entries: PerformanceEntryList) => {
          for (const entry of entries as unknown as { value: number; hadRecentInput: boolean; startTime: number }[]) {
            if (entry.hadRecentInput) continue;
            if (current && entry.startTime - last < 1000 && entry.startTime - first < 5000) {
              current += entry.value;
              last = entry.startTime;
            } else {
              current = entry.value;
              first = last = entry.startTime;
            }
            largest = Math.max(largest, current);
          }
        };
        const observer = new PerformanceObserver((list) => add(list.getEntries()));
        observer.observe({ type: "layout-shift", buffered: true });
        // Two frames, then a task: a shift still under way is recorded. Its entry may not have
        // been delivered yet (Chromium queues observer callbacks behind other work, late on a
        // loaded machine), so what is recorded but undelivered is taken too.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              add(observer.takeRecords());
              observer.disconnect();
              resolve(largest);
            }, 0),
          ),
        );
      }),
  );
}

/**
 * The layout shift of a fresh load of `doc` at `width` px: the server's own answer replayed at its
 * own URL (its CSP on; the stylesheet from the server), so a refused post's page needs no second
 * post and a long-polling page no second wait; the layout is the browser's, at that width.
 */
export async function layoutShift(measuring: Page, doc: PageDocument, width: number): Promise<number> {
  if (measuring.viewportSize()?.width !== width) await measuring.setViewportSize({ width, height: 900 });
  const target = doc.url;
  await measuring.route(
    (u) => u.href === target,
    (route) => route.fulfill({ status: doc.status, headers: doc.headers, body: doc.body }),
    { times: 1 },
  );
  await measuring.goto(target, { waitUntil: "load" });
  return cumulativeShift(measuring);
}
