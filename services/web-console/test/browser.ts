import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/**
 * Debian's `chromium` driven by playwright-core (no browser download), as the consent page test
 * does; where it is missing the browser suites are skipped and say why.
 */
export const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => !!p && existsSync(p),
);
export const skipReason = CHROMIUM
  ? null
  : "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)";

/** Screenshots go here (`$FLOWSTATE_ARTIFACT_DIR`, default `test-artifacts/` at the root, git-ignored). */
export const ARTIFACTS =
  process.env.FLOWSTATE_ARTIFACT_DIR ?? fileURLToPath(new URL("../../../test-artifacts", import.meta.url));

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
