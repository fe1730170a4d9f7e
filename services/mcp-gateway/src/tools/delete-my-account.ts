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
    "Deletes the signed-in person's Flowstate account; every token and session of it ends. Deletes nothing unless " +
    'confirm is "delete". Refused while the person owns a tenant (OWNS_ACTIVE_TENANTS: transfer or delete it first) ' +
    "and after 15 minutes from sign-in (REAUTHENTICATION_REQUIRED: authorize this client again, then retry).",
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
