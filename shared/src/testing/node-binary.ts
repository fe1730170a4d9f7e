import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const pinned = fileURLToPath(new URL("../../../node_modules/.bin/node", import.meta.url));

/**
 * The Node binary for child processes that tests spawn with a `.ts` entry point: the project's
 * pinned Node 24 (the root `node` devDependency, `node_modules/.bin/node`), whose type stripping
 * runs the file, rather than `process.execPath`, which is whatever Node runs the test runner.
 * Falls back to the current binary where the pinned one is not installed.
 *
 * @example
 * spawn(nodeBinary, [fileURLToPath(new URL("./fixture.ts", import.meta.url))], { env });
 */
export const nodeBinary = existsSync(pinned) ? pinned : process.execPath;
