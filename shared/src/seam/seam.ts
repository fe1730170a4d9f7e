import { routes } from "@flowstate/contracts/rest/routes";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import type { MiddlewareHandler } from "hono";
import { IDENTITY_HEADER } from "../auth/identity-assertion.ts";
import type { Keyring } from "../auth/keyring.ts";
import { requestBinding } from "../auth/request-binding.ts";
import { DomainError } from "../errors/domain-error.ts";
import { validTraceparent } from "../http/inbound-headers.ts";
import { rawHeader } from "../http/raw-header.ts";
import type { ServiceEnv } from "../http/types.ts";
import { CallContext, type Caller, type CredentialCheck, type SeamDeps } from "./call-context.ts";

export type { SeamDeps };

import { type CallerVerifier, callerVerifier } from "./verify-caller.ts";

/** A service's Hono variables on the seam: the platform's plus `call`. */
export type SeamEnv<D extends SeamDeps = SeamDeps> = {
  Variables: ServiceEnv["Variables"] & { call: CallContext<D> };
};

export interface SeamOptions<D extends SeamDeps> {
  service: FlowstateServiceName;
  /** `callerKeys`: the process's keys per caller (ADR 0014); every signed header is checked against it. */
  deps: D & { callerKeys: Keyring };
  /** How a write re-checks the caller's credential; none: the service writes for no caller (reads only). */
  credentials?: CredentialCheck | undefined;
  /** Verifies a signed header; default `callerVerifier(deps.callerKeys)` (the one place keys are chosen). */
  verify?: CallerVerifier | undefined;
}

const ANONYMOUS: Caller = Object.freeze({ kind: "anonymous" });

const unauthenticated = () =>
  new DomainError("unauthenticated", "UNAUTHENTICATED", "this service is reached through the gateway only");

/** `/v1/x/{id}` → a pattern matching the concrete paths of that template. */
const templatePattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);

/**
 * The one middleware between a service and its callers (ADR 0012). Probes answer before it; every
 * other request is denied by default with 401 UNAUTHENTICATED, whatever the path (so a direct
 * caller learns nothing about the routes), unless it is
 * - one of the service's public routes in the registry (`auth: "public"`): caller `anonymous`;
 * - under `/internal/v1`, with a genuine assertion of a platform `service` identity (which
 *   services may call which route is the route's `callers`, checked by `mountRoute`);
 * - anywhere else, with a genuine assertion a gateway forwarded: a user or an API key, with the
 *   door it came through (`channel`) and, on tenant routes, the tenant it resolved.
 * "Genuine" is decided by one function (`verify`, verify-caller.ts). The inbound `traceparent` is
 * validated here once; an invalid one is dropped and never reaches an event envelope.
 *
 * What the route allows (tenant, role, key scope, callers) is applied per route by `mountRoute`
 * (route-access.ts), from the registry: services write no access check of their own.
 *
 * @example
 * databaseServiceApp<SeamEnv<PrivacyDeps>>("privacy-svc", deps, options, {
 *   bodyLimitBytes: 16 * 1024,
 *   seam: { service: "privacy-svc", deps, credentials: remoteCredentials },
 *   routes: [mountUsersMeExportCreate],
 * });
 */
export function serviceSeam<D extends SeamDeps>(options: SeamOptions<D>): MiddlewareHandler<SeamEnv<D>> {
  const { service, deps, credentials } = options;
  const verify = options.verify ?? callerVerifier(deps.callerKeys);
  const publicRoutes = routes
    .filter((r) => r.service === service && r.auth === "public")
    .map((r) => ({ method: r.method, pattern: templatePattern(r.path) }));
  const isPublic = (method: string, path: string) =>
    publicRoutes.some((r) => r.method === method && r.pattern.test(path));

  return async function seam(c, next) {
    let caller = ANONYMOUS;
    let assertion: { tenant?: CallContext["tenant"]; channel?: CallContext["channel"] } = {};
    if (!isPublic(c.req.method, c.req.path)) {
      const verified = verify(await requestBinding(c), rawHeader(c, IDENTITY_HEADER));
      if (!verified) throw unauthenticated();
      const { identity, channel } = verified.assertion;
      const internal = c.req.path.startsWith("/internal/");
      if (internal !== (identity.kind === "service")) throw unauthenticated();
      // A gateway names the door of every caller it forwards: it picks the principal that reaches AWS.
      if (!internal && channel === undefined) throw unauthenticated();
      caller = identity;
      assertion = verified.assertion;
    }
    c.set(
      "call",
      new CallContext(
        service,
        deps,
        {
          caller,
          channel: assertion.channel,
          tenant: assertion.tenant,
          requestId: c.get("requestId"),
          trace: validTraceparent(rawHeader(c, "traceparent")),
          logger: c.get("logger"),
        },
        credentials,
      ),
    );
    await next();
  };
}
