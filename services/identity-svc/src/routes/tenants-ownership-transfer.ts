import { TenantPath } from "@flowstate/contracts/rest/identity/common";
import { OwnershipTransferRequest } from "@flowstate/contracts/rest/identity/tenants";
import { parseParams, readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { transferOwnership } from "../verbs/transfer-ownership.ts";

export function registerOwnershipTransfer(app: IdentityApp): void {
  app.post("/v1/tenants/:id/ownership-transfer", async (c) => {
    const { id } = parseParams(c, TenantPath);
    const input = await readJson(c, OwnershipTransferRequest);
    return c.json(await transferOwnership({ ctx: c.get("ctx"), tenantId: id, input }), 200);
  });
}
