import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";

/**
 * The public signing keys, pending ones included (see tokens/key-set.ts). Cacheable for 5 minutes:
 * the key activation delay is longer than that, so a cached copy always holds the next key.
 */
export function mountAuthJwks(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "auth.jwks"), (_, c) => {
    const { deps } = c.get("ctx");
    return { status: 200, body: deps.keyring.jwks(deps.clock()), headers: { "cache-control": "public, max-age=300" } };
  });
}
