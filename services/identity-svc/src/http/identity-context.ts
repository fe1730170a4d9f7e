import { INVALIDATE_HEADER, type Invalidation } from "@flowstate/contracts/internal/identity";
import { routes } from "@flowstate/contracts/rest/routes";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { validTraceparent } from "@flowstate/shared/http/inbound-headers";
import { callerVerifier } from "@flowstate/shared/seam/verify-caller";
import type { MiddlewareHandler } from "hono";
import { type Actor, ServiceContext } from "../context.ts";
import type { IdentityDeps } from "../deps.ts";
import { compactInvalidations } from "./compact-invalidations.ts";
import type { IdentityEnv } from "./env.ts";

/** Probes answer before this middleware runs (they are mounted first); everything else is here. */
const PUBLIC = new Set(
  routes.filter((r) => r.service === "identity-svc" && r.auth === "public").map((r) => `${r.method} ${r.path}`),
);

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/**
 * Deny by default: every request except the public routes of the registry (sign-up, sign-in,
 * refresh, JWKS) must carry a gateway assertion that is genuine, fresh and bound to this request
 * (method, target with its query, body hash), else 401, whatever the path (including /internal/v1 and unknown paths, so a direct caller
 * learns nothing about the routes). A `service` identity (the gateway on
 * its own behalf) is accepted on /internal/v1 only.
 *
 * After the handler, the invalidations the verb collected become the `flowstate-invalidate`
 * header, on error answers too (a replayed refresh token revokes its session and still answers 401),
 * and are pushed to every door instance before the answer leaves (ADR 0011): the header reaches
 * only the instance that relayed the call. Every verb that revokes runs under this middleware
 * (sign-out, refresh replay on both token endpoints, RFC 7009, authorized-clients, API keys,
 * members, tenants, account deletion), and its transaction has committed by the time it returns.
 */
export function identityContext(deps: IdentityDeps): MiddlewareHandler<IdentityEnv> {
  // Verified headers are remembered until they leave the skew window (see assertion-cache.ts).
  // Against its own pairs (keys per caller, ADR 0014): the doors' and the credential checkers'.
  const verify = callerVerifier(deps.callerKeys);
  return async function identityContext(c, next) {
    let actor: Actor = { kind: "anonymous" };
    let tenant: ServiceContext["tenant"];
    if (!PUBLIC.has(`${c.req.method} ${c.req.path}`)) {
      const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
      if (!verified) throw unauthenticated();
      const { assertion } = verified;
      if (assertion.identity.kind === "service" && !c.req.path.startsWith("/internal/")) throw unauthenticated();
      actor = assertion.identity;
      tenant = assertion.tenant;
    }
    const ctx = new ServiceContext(deps, {
      actor,
      tenant,
      requestId: c.get("requestId"),
      // Validated again here: it goes into every event this call emits (an invalid one is dropped).
      trace: validTraceparent(c.req.header("traceparent")),
      logger: c.get("logger"),
    });
    c.set("ctx", ctx);
    try {
      await next();
    } finally {
      if (ctx.invalidations.length) {
        const list = compactInvalidations(ctx.invalidations);
        c.res.headers.set(INVALIDATE_HEADER, JSON.stringify(list));
        await pushToDoors(deps, ctx, list);
      }
    }
  };
}

/**
 * The push, after commit and before the answer. If it cannot even list the doors (database
 * unreachable), waiting one lease is the best left: a door that cannot renew trusts nothing after it.
 */
async function pushToDoors(deps: IdentityDeps, ctx: ServiceContext, list: Invalidation[]): Promise<void> {
  const started = performance.now();
  try {
    const outcome = await deps.doors.push(list, ctx.logger, ctx.doorsAtCommit);
    // What this adds to the revoking call (ADR 0011's cost; revoking calls are rare, so info).
    if (outcome.doors > 0)
      ctx.logger.info(
        { doors: outcome.doors, pushMs: performance.now() - started },
        "invalidations pushed to the doors",
      );
  } catch (err) {
    ctx.logger.error({ err }, "invalidations not pushed to the doors; waiting one lease before answering");
    await new Promise((resolve) => setTimeout(resolve, deps.doors.settings.leaseMs));
  }
}
