import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { createApiKey } from "../verbs/create-api-key.ts";

// The answer carries the only copy of the secret.
const NO_STORE = { "cache-control": "no-store" };

export function mountApiKeysCreate(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "api_keys.create"), async ({ params, body }, c) => ({
    status: 201,
    body: await createApiKey({ ctx: c.get("ctx"), tenantId: params.id, input: body }),
    headers: NO_STORE,
  }));
}
