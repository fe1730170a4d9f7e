import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { verifyApiKey } from "../verbs/verify-api-key.ts";

export function mountInternalApiKeysVerify(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.api_keys.verify"), async ({ body }, c) => ({
    status: 200,
    body: await verifyApiKey({ ctx: c.get("ctx"), key: body.key }),
  }));
}
