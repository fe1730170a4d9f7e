import { Sub, TenantId } from "@flowstate/contracts/ids";
import { z } from "zod";
import { SUB_ONLY_SINCE } from "../db/migrations.ts";

/**
 * One row of the old audit log, as its export writes it (JSON lines): people by plaintext e-mail,
 * from before 2026-09-25 only. Fields beyond these (free-text details, IP addresses) are dropped
 * on import, never stored.
 */
export const LegacyAuditRow = z.object({
  /** The old log's id: importing the same file twice imports nothing the second time. */
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/),
  type: z.string().regex(/^[A-Za-z][A-Za-z0-9_.]{0,80}$/),
  occurred_at: z.iso.datetime({ offset: true }).refine((t) => Date.parse(t) < Date.parse(SUB_ONLY_SINCE), {
    message: `legacy rows are from before ${SUB_ONLY_SINCE}; later rows identify people by sub`,
  }),
  tenant_id: TenantId.optional(),
  actor_email: z.email().optional(),
  target_email: z.email().optional(),
  actor_sub: Sub.optional(),
  target_sub: Sub.optional(),
});
export type LegacyAuditRow = z.infer<typeof LegacyAuditRow>;
