import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { honoPath, routeBook } from "@flowstate/shared/http/route-book";
import type { Context } from "hono";
import type { IdentityApp, IdentityEnv } from "../../http/env.ts";

/**
 * Mounts an OAuth protocol or authorization-page route from its registry entry, like mountRoute
 * (recorded in the app's route book, so the route contract test sees it), but without mountRoute's
 * JSON validation and problem answers: these routes take form bodies or query strings, answer HTML
 * or RFC 6749 error objects, and validate with the OAuth rules themselves (http/form.ts).
 */
export function mountProtocolRoute(
  app: IdentityApp,
  spec: RouteSpec,
  handler: (c: Context<IdentityEnv>) => Promise<Response> | Response,
): void {
  app.on(spec.method, [honoPath(spec.path)], handler);
  routeBook(app).mounted.push(spec);
}
