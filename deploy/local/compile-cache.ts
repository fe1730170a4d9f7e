import { fileURLToPath } from "node:url";

/**
 * Where Node keeps its on-disk code cache (`NODE_COMPILE_CACHE`) for `npm start`'s services and the
 * test run's processes (deploy/local/stack.ts, vitest.config.ts): inside node_modules, so a fresh
 * `npm ci` starts it empty and git never sees it.
 */
export const COMPILE_CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/node-compile", import.meta.url));
