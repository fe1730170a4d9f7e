import { routeIn } from "@flowstate/contracts/rest/route";
import { identityRoutes } from "@flowstate/contracts/rest/routes";
import { z } from "zod";
import { defineTool } from "./tool.ts";

/**
 * `delete_my_account(confirm)` (interface 4.2): `confirm` is lower-cased and compared with
 * `delete`; anything else deletes nothing (server.ts answers before any call is made).
 */
export const deleteMyAccount = defineTool({
  name: "delete_my_account",
  description:
    "Deletes the signed-in person's Flowstate account: it is disabled at once and every token and session of it stops working. " +
    "Refused (OWNS_ACTIVE_TENANTS, with the tenant ids) while the person owns a tenant that is not deleted: transfer ownership or delete those tenants first. " +
    "Needs a sign-in at most 15 minutes old (else REAUTHENTICATION_REQUIRED: the person authorizes this client again, then retries). " +
    'Pass confirm: "delete" (any case) to proceed; any other value deletes nothing. Returns {deleted, sub, deleted_at}.',
  route: routeIn(identityRoutes, "users.me.delete"),
  scope: "account",
  person: true,
  input: { confirm: z.string().max(100).describe('Type "delete" to confirm') },
  annotations: {
    title: "Delete my account",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  request: () => ({ path: "/v1/users/me" }),
});

/** Whether `confirm` says delete (case-insensitive, surrounding blanks ignored). */
export const confirmsDeletion = (confirm: string) => confirm.trim().toLowerCase() === "delete";
