import type { TenantContext } from "@flowstate/contracts/internal/identity";
import type { RouteShape } from "@flowstate/contracts/rest/route";
import type { Context } from "hono";
import type { Caller } from "../seam/call-context.ts";

/** What `mountRoute` knows about one app: its setting and the registry entries mounted on it. */
export interface RouteBook {
  /** Check every answer of a mounted route against the route's response schemas (tests; see mount-route.ts). */
  checkResponses: boolean;
  /**
   * Where the verified caller of a request is: set by the seam (shared/src/seam/), or by a service
   * with its own caller middleware (identity-svc). When set, every route mounted on the app gets
   * the access its registry entry declares (seam/route-access.ts) before anything else runs.
   */
  access?: RouteAccessSource | undefined;
  mounted: RouteShape[];
}

/**
 * Where route access finds the verified caller, and which of the registry's rules the app applies
 * this way (default all three; identity-svc, still on its own middleware, applies `internal` and
 * `user` and re-checks tenants against its own tables).
 */
export interface RouteAccessSource {
  callOf: (c: Context) => VerifiedCall;
  /**
   * Re-checks a user's or API key's credential before a write route does anything (validation,
   * AWS calls, its transaction); unset where the check runs inside the write's transaction only.
   */
  recheck?: (c: Context) => Promise<void>;
  /**
   * Ids of write routes whose handler does nothing before its verb's transaction, and whose verb
   * re-checks the credential first thing in it, under the locks that serialise with revocation: for
   * these the early `recheck` is one round trip of no use on success (issue 26), so it runs only
   * when the route refuses or fails (its tenant rule, validation, the verb), and a dead credential
   * still answers 401 before any other problem. A route listed here must have a test that a dead
   * credential gets 401 on each of those paths.
   */
  checkedInTransaction?: ReadonlySet<string>;
  rules?: ReadonlySet<"internal" | "user" | "tenant">;
}

/** What route access needs to know of a request's caller. */
export interface VerifiedCall {
  caller: Caller;
  tenant: TenantContext | undefined;
}

const books = new WeakMap<object, RouteBook>();

/** The book of `app`, created on first use (an app not built by createServiceApp checks nothing). */
export function routeBook(app: object): RouteBook {
  let book = books.get(app);
  if (!book) {
    book = { checkResponses: false, mounted: [] };
    books.set(app, book);
  }
  return book;
}

/** `/v1/tenants/{id}` → `/v1/tenants/:id`: the registry's OpenAPI template as Hono's route path. */
export const honoPath = (template: string): string => template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");
