import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute, NO_STORE } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { createApiKey } from "../verbs/create-api-key.ts";

export function mountApiKeysCreate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "api_keys.create"), async ({ params, body }, c) => ({
    status: 201,
    body: await createApiKey({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
    headers: NO_STORE,
  }));
}
