import { INVALIDATIONS_PUSH_PATH } from "@flowstate/contracts/internal/doors";
import { type Invalidation, InvalidationList } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { type Keyring, keyringVerifier } from "@flowstate/shared/auth/keyring";
import { requestBinding } from "@flowstate/shared/auth/request-binding";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * identity-svc's push of a call's invalidations (ADR 0011), on the door's internal listener:
 * `POST /internal/v1/invalidations` with identity-svc's assertion, signed with its pair
 * `identity-svc--<this door>` (ADR 0014), body an InvalidationList. Answers 204 only once they are
 * applied to this instance's caches (the ack identity-svc waits for); anything not genuine is 401,
 * a genuine header of any other signer 403 (the keyring refuses a signer it has no pair with, and a
 * service key asserting anyone but its own service), and neither changes anything.
 *
 * @example
 * await serveMetrics(metrics, { host, port, logger, routes: (app) => mountInvalidationPush(app, { keyring, invalidate }) });
 */
export function mountInvalidationPush(
  app: Hono,
  options: { keyring: Keyring; invalidate: (list: readonly Invalidation[]) => void },
): void {
  const verify = keyringVerifier(options.keyring, { max: 100 });
  app.post(INVALIDATIONS_PUSH_PATH, bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.body(null, 413) }), async (c) => {
    let verified: ReturnType<typeof verify>;
    try {
      verified = verify(await requestBinding(c), c.req.header(IDENTITY_HEADER));
    } catch (err) {
      // 403 (a signer with no pair here) or 503 (a genuine push held past its window): its status, no body.
      if (err instanceof DomainError) return c.body(null, err.kind === "forbidden" ? 403 : 503);
      throw err;
    }
    const who = verified?.assertion.identity;
    if (who?.kind !== "service" || who.service !== "identity-svc") return c.body(null, 401);
    const list = InvalidationList.safeParse(await c.req.json().catch(() => undefined));
    if (!list.success) return c.body(null, 400);
    options.invalidate(list.data);
    return c.body(null, 204);
  });
}
