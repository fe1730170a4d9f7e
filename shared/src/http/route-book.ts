import type { RouteShape } from "@flowstate/contracts/rest/route";

/** What `mountRoute` knows about one app: its setting and the registry entries mounted on it. */
export interface RouteBook {
  /** Check every answer of a mounted route against the route's response schemas (tests; see mount-route.ts). */
  checkResponses: boolean;
  mounted: RouteShape[];
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
