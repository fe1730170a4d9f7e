import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// URL");

/**
 * audit-svc's environment, parsed once at boot by main.ts.
 *
 * Two PostgreSQL roles (README "Database roles"): `DATABASE_URL` is the service's own login, which
 * may only INSERT and SELECT audit rows; the schema belongs to another role, whose login
 * (`AUDIT_OWNER_DATABASE_URL`) is used at boot to migrate and nothing else. Locally (trust auth,
 * `npm start`, docker-compose) `AUDIT_PROVISION_ROLES=true` treats `DATABASE_URL` as an
 * administrator that creates both roles, then connects as them.
 */
export const AuditConfig = serviceConfigSchema({
  service: "audit-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("audit"),
    DATABASE_POOL_MAX: int(10, 2, 100),
    /** The schema owner's login, for migrations at boot; unset: the schema must already be migrated. */
    AUDIT_OWNER_DATABASE_URL: postgresUrl.optional(),
    /** Local only: DATABASE_URL is an administrator on a trust-auth server; create and use the two roles. */
    AUDIT_PROVISION_ROLES: booleanVar(false),
    /** The archive bucket (`<prefix>-<stage>-<account>-audit-archive`, Object Lock COMPLIANCE, from the bootstrap). */
    AUDIT_ARCHIVE_BUCKET: z.string().min(3),
    /** Most rows in one archive object. */
    AUDIT_ARCHIVE_BATCH_MAX_ROWS: int(1000, 1, 100_000),
    /** How often the archiver looks for rows to archive. */
    AUDIT_ARCHIVE_INTERVAL_SECONDS: int(60, 1, 24 * 3600),
    /** Rows older than this leave the live table once archived (the archive keeps them 2555 days). */
    AUDIT_RETENTION_DAYS: int(400, 1, 2555),
    /** Consume `<prefix>-<stage>-audit-svc`; off only to run the HTTP side alone. */
    CONSUME_EVENTS: booleanVar(true),
  },
});
export type AuditConfig = z.output<typeof AuditConfig>;
