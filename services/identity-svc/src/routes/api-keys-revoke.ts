import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { revokeApiKey } from "../verbs/revoke-api-key.ts";

export function mountApiKeysRevoke(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "api_keys.revoke"), async ({ params }, c) => {
    await revokeApiKey({ ctx: c.get("ctx"), tenantId: params.id, keyId: params.key_id });
    return { status: 204 };
  });
}
