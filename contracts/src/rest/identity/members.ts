import { z } from "zod";
import { Sub, TenantRole } from "../../ids.ts";
import { Email, Timestamp } from "./common.ts";

/** Roles that can be given directly; `owner` only moves through an ownership transfer. */
export const AssignableRole = z.enum(["admin", "member"]);
export type AssignableRole = z.infer<typeof AssignableRole>;

export const Member = z.object({
  sub: Sub,
  name: z.string(),
  email: Email,
  role: TenantRole,
  added_at: Timestamp,
});
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({ members: z.array(Member) });
export type MemberList = z.infer<typeof MemberList>;

/**
 * Invites an e-mail address (an invitation, see invitations.ts): the answer is the same whether or
 * not the address has an account, so the endpoint tells nobody who is registered.
 */
export const AddMemberRequest = z.strictObject({ email: Email, role: AssignableRole });
export type AddMemberRequest = z.infer<typeof AddMemberRequest>;

export const ChangeMemberRoleRequest = z.strictObject({ role: AssignableRole });
export type ChangeMemberRoleRequest = z.infer<typeof ChangeMemberRoleRequest>;
