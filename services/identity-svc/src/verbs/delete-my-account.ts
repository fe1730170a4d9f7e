import type { AccountDeleted } from "@flowstate/contracts/rest/identity/users";
import type { ServiceContext } from "../context.ts";
import { deleteAccount } from "./delete-account.ts";
import { requireUser } from "./lib/guards.ts";
import { requireRecentAuthentication } from "./lib/recent-authentication.ts";

/**
 * DELETE /v1/users/me and the MCP tool `delete_my_account`: the signed-in person deletes their own
 * account, after proving a recent sign-in or the password (an API key never deletes a person).
 */
export async function deleteMyAccount({
  ctx,
  password,
}: {
  ctx: ServiceContext;
  password?: string | undefined;
}): Promise<AccountDeleted> {
  const { sub, sid } = requireUser(ctx);
  await requireRecentAuthentication(ctx, { sub, sid, password });
  return deleteAccount({ ctx, sub });
}
