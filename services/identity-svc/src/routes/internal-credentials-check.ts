import { internalIdentityRoutes } from "@flowstate/contracts/internal/routes";
import { routeIn } from "@flowstate/contracts/rest/route";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { IdentityApp } from "../http/env.ts";
import { checkCredential } from "../verbs/check-credential.ts";

export function mountInternalCredentialsCheck(app: IdentityApp): void {
  mountRoute(app, routeIn(internalIdentityRoutes, "internal.credentials.check"), async ({ body }, c) => {
    await checkCredential({ ctx: c.get("ctx"), identity: body.identity });
    return { status: 204 };
  });
}
