import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The browser the browser suites drive (playwright-core, no browser download): `$CHROMIUM_PATH`,
 * else Debian's `chromium-headless-shell`, else Debian's `chromium`. The headless shell first: it is
 * the old headless mode, a build without the full browser's UI and services, which playwright
 * itself uses for headless runs; the full `chromium` has run only the new headless mode since
 * Chromium 132. Measured with Chromium 156 on this 2-core machine (2026-11-26): the seller console's
 * journey file 166 s alone with `chromium` and 89 s with the shell, a launch 0.8 s against 0.23 s,
 * a navigation 110 ms against 48. `.ci/run` installs the package; undefined where neither is there.
 */
export const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
].find((p): p is string => !!p && existsSync(p));

/** Why a browser suite is skipped (null: it runs). */
export const chromiumSkipReason = CHROMIUM
  ? null
  : "no Chromium is installed (apt-get install -y chromium-headless-shell; .ci/run does it)";

/** Screenshots go here: `$FLOWSTATE_ARTIFACT_DIR`, default `test-artifacts/` at the root (git-ignored). */
export const ARTIFACTS =
  process.env.FLOWSTATE_ARTIFACT_DIR ?? fileURLToPath(new URL("../../../test-artifacts", import.meta.url));
