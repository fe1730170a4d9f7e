import { decideSignedTenantAccess } from "@flowstate/contracts/auth/tenant-access";
import type { InternalRouteShape } from "@flowstate/contracts/internal/routes";
import type { RouteShape, RouteSpec } from "@flowstate/contracts/rest/route";
import type { Context, MiddlewareHandler } from "hono";
import { apiKeyNotAllowed, tenantRefusal } from "../auth/tenant-refusal.ts";
import { DomainError } from "../errors/domain-error.ts";
import type { RouteAccessSource } from "../http/route-book.ts";

const forbidden = (service: string) => new DomainError("forbidden", "FORBIDDEN", `${service} may not call this route`);

/**
 * The access a route declares in the registry, applied by `mountRoute` before anything else of
 * the route runs (validation included) on every app built on the seam, so no service writes a
 * tenant check or a caller list of its own. The refusals are the gateway's (tenant-refusal.ts):
 * - internal routes: the calling service must be in the route's `callers` (403 FORBIDDEN);
 * - `auth: "user"`: a user's token, never an API key (403 API_KEY_NOT_ALLOWED);
 * - `auth: "tenant"`: `decideSignedTenantAccess` (contracts/src/auth/tenant-access.ts) on the
 *   signed tenant and role against the path's `{id}`: 404 NOT_FOUND for another tenant, exactly
 *   like a missing one; 403 API_KEY_NOT_ALLOWED, INSUFFICIENT_SCOPE, INSUFFICIENT_ROLE.
 * - first of all on a write (any method but GET and HEAD) by a user or an API key, as the gateway
 *   authenticates before it authorizes: the credential re-check (`source.recheck`: 401
 *   SESSION_REVOKED / INVALID_API_KEY, 503 when it cannot be told); for a route whose verb
 *   checks in its own transaction (`source.checkedInTransaction`), only when the route refuses.
 * Returns undefined for a public route (the seam already let it through as `anonymous`).
 * `source` says where the verified caller is on the request and which rules apply (route-book.ts).
 */
export function routeAccess(spec: RouteShape, source: RouteAccessSource): MiddlewareHandler | undefined {
  const { callOf, rules } = source;
  const gate = gateOf(spec, source);
  if ("callers" in spec) {
    if (rules && !rules.has("internal")) return undefined;
    const callers = new Set<string>((spec as InternalRouteShape).callers);
    return async function internalAccess(c, next) {
      const { caller } = callOf(c);
      if (caller.kind !== "service") throw forbidden(caller.kind);
      if (!callers.has(caller.service)) throw forbidden(caller.service);
      await next();
    };
  }
  const route = spec as RouteSpec;
  if (route.auth === "user" && (!rules || rules.has("user"))) {
    return gated(gate, async function userAccess(c, next) {
      if (callOf(c).caller.kind !== "user") throw apiKeyNotAllowed();
      await next();
    });
  }
  if (route.auth === "tenant" && (!rules || rules.has("tenant"))) {
    const minRole = route.minRole ?? "member";
    const need = { minRole, apiKey: route.apiKey };
    // The credential first, as the gateway authenticates before it decides on the tenant: a dead one is 401.
    return gated(gate, async function tenantAccess(c, next) {
      const { caller, tenant } = callOf(c);
      const pathTenant = c.req.param("id") ?? "";
      const decision =
        caller.kind === "api_key"
          ? decideSignedTenantAccess(need, pathTenant, {
              kind: "api_key",
              keyTenantId: caller.tenant_id,
              scope: caller.scope,
              signed: tenant,
            })
          : caller.kind === "user"
            ? decideSignedTenantAccess(need, pathTenant, { kind: "user", signed: tenant })
            : ({ ok: false, code: "NOT_FOUND" } as const);
      if (!decision.ok) throw tenantRefusal(decision.code, minRole);
      await next();
    });
  }
  return undefined;
}

const READS = new Set(["GET", "HEAD"]);

/** A write route's credential gate, around the rest of its access check (see gateOf). */
interface Gate {
  /** Before the route's access decision. */
  before: (c: Context) => Promise<void>;
  /** On a refusal or failure of the route (thrown, or downstream: Hono then sets `c.error`). */
  onRefusal: (c: Context) => Promise<void>;
}

const none = async () => {};

/**
 * A write route's credential gate: before the route's access decision, validation and
 * anything the handler does (an AWS call, its transaction), the session or key must still be live.
 * `call.transaction` checks again right before it opens, so a long verb is covered at its commit too.
 * A route whose verb checks in its own transaction (`checkedInTransaction`) is checked here only
 * when it refuses: on success the transaction's locked check has answered already, and on a
 * refusal a dead credential is still told first (401), as the gateway would.
 */
function gateOf(spec: RouteShape, source: RouteAccessSource): Gate {
  const recheck = source.recheck;
  if (!recheck || READS.has(spec.method)) return { before: none, onRefusal: none };
  if (source.checkedInTransaction?.has(spec.id)) return { before: none, onRefusal: recheck };
  return { before: recheck, onRefusal: none };
}

/** Runs `access` (which calls `next` when it admits the call) with `gate`'s checks around it. */
function gated(gate: Gate, access: MiddlewareHandler): MiddlewareHandler {
  if (gate.onRefusal === none) {
    if (gate.before === none) return access;
    return async (c, next) => {
      await gate.before(c);
      await access(c, next);
    };
  }
  return async (c, next) => {
    try {
      await access(c, next);
    } catch (err) {
      await gate.onRefusal(c);
      throw err;
    }
    // A problem thrown after this middleware is already the answer (Hono's compose set c.error and
    // c.res); a credential refusal thrown here replaces it.
    if (c.error) await gate.onRefusal(c);
  };
}
