import { Sub, TenantId } from "@flowstate/contracts/ids";
import { parseParams } from "@flowstate/shared/http/validate";
import { z } from "zod";
import type { IdentityApp } from "../http/env.ts";
import { membershipState } from "../verbs/membership-state.ts";

const Params = z.object({ id: TenantId, sub: Sub });

export function registerInternalMembership(app: IdentityApp): void {
  app.get("/internal/v1/tenants/:id/members/:sub", async (c) => {
    const { id, sub } = parseParams(c, Params);
    return c.json(await membershipState({ ctx: c.get("ctx"), tenantId: id, sub }), 200);
  });
}
