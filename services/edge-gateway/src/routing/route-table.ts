import type { RouteSpec } from "@flowstate/contracts/rest/route";

export type RouteMatch = { route: RouteSpec; params: Record<string, string> };

interface Compiled {
  route: RouteSpec;
  /** A literal segment, or null where the template has a `{param}`. */
  literals: (string | null)[];
  names: (string | null)[];
}

/**
 * The registry's routes as a lookup from (method, decoded path) to the route and its parameters.
 * A few dozen templates: a scan over those with the right segment count costs about a
 * microsecond, and knowing every template lets the gateway answer 405 with `Allow` itself.
 *
 * @example
 * const table = new RouteTable(routes);
 * table.match("GET", "/v1/tenants/tnt_abc"); // { route: tenants.get, params: { id: "tnt_abc" } }
 * table.match("PUT", "/v1/tenants/tnt_abc"); // { allow: "GET, HEAD, PATCH, DELETE" }
 */
export class RouteTable {
  readonly #bySegments = new Map<number, Compiled[]>();

  constructor(routes: readonly RouteSpec[]) {
    for (const route of routes) {
      const parts = route.path.split("/");
      const compiled: Compiled = {
        route,
        literals: parts.map((p) => (p.startsWith("{") ? null : p)),
        names: parts.map((p) => (p.startsWith("{") ? p.slice(1, -1) : null)),
      };
      const list = this.#bySegments.get(parts.length) ?? [];
      list.push(compiled);
      this.#bySegments.set(parts.length, list);
    }
  }

  match(method: string, path: string): RouteMatch | { allow: string } | null {
    const parts = path.split("/");
    const candidates = this.#bySegments.get(parts.length);
    if (candidates === undefined) return null;
    const lookup = method === "HEAD" ? "GET" : method;
    const allowed: string[] = [];
    for (const c of candidates) {
      if (!fits(c, parts)) continue;
      if (c.route.method === lookup) {
        const params: Record<string, string> = {};
        for (let i = 0; i < parts.length; i++) if (c.names[i] !== null) params[c.names[i]!] = parts[i]!;
        return { route: c.route, params };
      }
      allowed.push(c.route.method, ...(c.route.method === "GET" ? ["HEAD"] : []));
    }
    return allowed.length ? { allow: allowed.join(", ") } : null;
  }
}

function fits(c: Compiled, parts: string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const literal = c.literals[i];
    if (literal === null) {
      if (parts[i] === "") return false;
    } else if (literal !== parts[i]) return false;
  }
  return true;
}
