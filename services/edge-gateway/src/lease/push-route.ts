import { INVALIDATIONS_PUSH_PATH } from "@flowstate/contracts/internal/doors";
import { type Invalidation, InvalidationList } from "@flowstate/contracts/internal/identity";
import { assertionVerifier } from "@flowstate/shared/auth/assertion-cache";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * identity-svc's push of a call's invalidations (ADR 0011), on the door's internal listener:
 * `POST /internal/v1/invalidations` with identity-svc's signed assertion, body an InvalidationList.
 * Answers 204 only once they are applied to this instance's caches (the ack identity-svc waits
 * for); anything not genuine is 401 and changes nothing.
 *
 * @example
 * await serveMetrics(metrics, { host, port, logger, routes: (app) => mountInvalidationPush(app, { secret, invalidate }) });
 */
export function mountInvalidationPush(
  app: Hono,
  options: { secret: string; invalidate: (list: readonly Invalidation[]) => void },
): void {
  const verify = assertionVerifier(options.secret, { max: 100 });
  app.post(INVALIDATIONS_PUSH_PATH, bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.body(null, 413) }), async (c) => {
    const verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    const who = verified?.assertion.identity;
    if (who?.kind !== "service" || who.service !== "identity-svc") return c.body(null, 401);
    const list = InvalidationList.safeParse(await c.req.json().catch(() => undefined));
    if (!list.success) return c.body(null, 400);
    options.invalidate(list.data);
    return c.body(null, 204);
  });
}
