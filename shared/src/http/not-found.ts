import type { Context, Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { problemResponse } from "./problem.ts";
import type { ServiceEnv } from "./types.ts";

/**
 * The app's notFound: 405 with `Allow` when the path exists under other methods, else 404.
 * Hono has no 405 of its own; the method table is built from `app.routes` on the first miss (Hono
 * refuses new routes once it has matched a request, so the table cannot go stale).
 */
export function notFoundHandler(app: Hono<ServiceEnv>) {
  let router: TrieRouter<string[]> | undefined;

  return (c: Context<ServiceEnv>): Response => {
    router ??= buildMethodRouter(app);
    const allowed = new Set<string>();
    for (const [methods] of router.match("ALL", c.req.path)[0]) for (const m of methods) allowed.add(m);
    const requestId = c.get("requestId") ?? "req_unknown";
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      const allow = [...allowed].join(", ");
      return problemResponse(
        { status: 405, code: "METHOD_NOT_ALLOWED", detail: `${c.req.method} is not allowed here; allowed: ${allow}` },
        requestId,
        { allow },
      );
    }
    return problemResponse({ status: 404, code: "NOT_FOUND", detail: "no such route" }, requestId);
  };
}

function buildMethodRouter(app: Hono<ServiceEnv>): TrieRouter<string[]> {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    // "ALL" entries are middleware (app.use) or catch-alls; neither says which methods a path has.
    if (route.method === "ALL") continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === "GET") methods.add("HEAD");
    byPath.set(route.path, methods);
  }
  const router = new TrieRouter<string[]>();
  for (const [path, methods] of byPath) router.add("ALL", path, [...methods]);
  return router;
}
