import assert from "node:assert/strict";
import { internalRoutes } from "@flowstate/contracts/internal/routes";
import type { ServiceName } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import type { Hono } from "hono";
import { honoPath, routeBook } from "../http/route-book.ts";

/** Mounted by createServiceApp on every service; not registry routes. */
const PLATFORM = new Set(["GET /healthz", "GET /readyz", "GET /metrics"]);

/**
 * The route contract of one service, for its app test: every registry route the service owns
 * (public and internal) is mounted with `mountRoute`, the app serves no route that has no registry
 * entry, and the app checks its answers against the response schemas (`checkResponses`), so
 * every route test of the service also fails on an answer off its schema.
 *
 * @example
 * it("serves exactly its registry routes", () => expectRouteContract(h.app, "identity-svc"));
 */
export function expectRouteContract(app: Pick<Hono, "routes">, service: ServiceName): void {
  const book = routeBook(app);
  const declared = [...routes, ...internalRoutes].filter((r) => r.service === service);
  const mounted = new Set(book.mounted.map((r) => r.id));
  const missing = declared.filter((r) => !mounted.has(r.id)).map((r) => `${r.id} (${r.method} ${r.path})`);
  assert.deepEqual(missing, [], `registry routes of ${service} with no handler`);

  const known = new Set([...PLATFORM, ...book.mounted.map((r) => `${r.method} ${honoPath(r.path)}`)]);
  const foreign = book.mounted.filter((r) => r.service !== service).map((r) => r.id);
  assert.deepEqual(foreign, [], `routes of other services mounted on ${service}`);
  const unregistered = [
    ...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`)),
  ].filter((r) => !known.has(r));
  assert.deepEqual(unregistered, [], `handlers on ${service} without a registry entry (mount them with mountRoute)`);

  assert.ok(book.checkResponses, `${service}'s test app must be built with checkResponses: true`);
}
