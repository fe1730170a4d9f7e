import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { listApiKeys } from "../verbs/list-api-keys.ts";

export function mountApiKeysList(app: IdentityApp): void {
  mountRoute(app, routeIn(identityRoutes, "api_keys.list"), async ({ params }, c) => ({
    status: 200,
    body: await listApiKeys({ ctx: c.get("ctx"), tenantId: params.id }),
  }));
}
