import { z } from "zod";
import { ExportJobId, Sub, TenantId, TenantRole } from "../ids.ts";
import { Timestamp } from "../rest/identity/common.ts";
import { NotificationPreferences, PictureUrl } from "../rest/identity/users.ts";
import type { FlowstateServiceName } from "../services/catalog.ts";

/**
 * The personal-data export's gathering contract (docs/adr/0009-personal-data-export.md).
 *
 * Each category of the archive is answered for by the service that owns the data: privacy-svc asks
 * `GET {service}/internal/v1/users/{sub}/personal-data/{category}` (signed with its own `service`
 * identity) and streams the answer into the ZIP. A service that starts holding personal data joins
 * the export by adding its category here and serving that route; privacy-svc's code does not change.
 *
 * Wire format: `application/x-ndjson`, one `{"record": …}` line per record (exactly one for an
 * `object` category), then one `{"end": {"count": n}}` line: an answer cut short (a participant
 * that fails mid-stream) has no end line, so it can never pass for a shorter list. 404 ACCOUNT_GONE
 * when the account does not exist or is deleted (any other 404, a missing route or a proxy's, is a
 * failure to gather, never read as a deletion). Records are strict: privacy-svc
 * refuses any field not declared here, so a participant cannot put more into the archive than the
 * category holds (interface.md 2.4: no grants, API-key metadata, audit events, send log, secrets, or
 * other people's data).
 */

export const ExportedProfile = z.strictObject({
  sub: Sub,
  name: z.string(),
  email: z.string(),
  picture_url: PictureUrl.nullable(),
  status: z.enum(["active", "deleted"]),
  created_at: Timestamp,
});
export type ExportedProfile = z.infer<typeof ExportedProfile>;

/** One of the user's own memberships; never another member of the tenant. */
export const ExportedMembership = z.strictObject({
  tenant_id: TenantId,
  tenant_name: z.string(),
  /** A soft-deleted tenant keeps the user's membership row, so it is the user's data too. */
  tenant_status: z.enum(["active", "deleted"]),
  role: TenantRole,
  since: Timestamp,
});
export type ExportedMembership = z.infer<typeof ExportedMembership>;

/** One earlier export request of the user (the job being built is not in its own archive). */
export const ExportedJob = z.strictObject({
  job_id: ExportJobId,
  status: z.enum(["queued", "running", "ready", "failed", "expired", "cancelled"]),
  requested_at: Timestamp,
  completed_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  failure_reason: z.string().nullable(),
});
export type ExportedJob = z.infer<typeof ExportedJob>;

export const ExportedNotificationPreferences = NotificationPreferences.strict();

export interface CategorySpec {
  /** The service that answers for the category. */
  service: FlowstateServiceName;
  /** The file in the archive. */
  file: string;
  /** `object`: exactly one record, written as a JSON object; `list`: any number, a JSON array. */
  kind: "object" | "list";
  record: z.ZodType;
  /** What the category holds, in the words of interface.md 2.4 (the manifest repeats it). */
  description: string;
}

/** The four categories of interface.md 2.4, in archive order, and nothing else. */
export const personalDataCategories = {
  profile: {
    service: "identity-svc",
    file: "profile.json",
    kind: "object",
    record: ExportedProfile,
    description: "name, e-mail, profile picture, account status, creation date",
  },
  memberships: {
    service: "identity-svc",
    file: "memberships.json",
    kind: "list",
    record: ExportedMembership,
    description: "each tenant you belong to and your role in it",
  },
  export_jobs: {
    service: "privacy-svc",
    file: "export_jobs.json",
    kind: "list",
    record: ExportedJob,
    description: "records of your previous export requests",
  },
  notification_preferences: {
    service: "identity-svc",
    file: "notification_preferences.json",
    kind: "object",
    record: ExportedNotificationPreferences,
    description: "your current notification preference settings",
  },
} as const satisfies Record<string, CategorySpec>;

export type PersonalDataCategory = keyof typeof personalDataCategories;
/** The services that answer for a category (the table above says which; nothing else lists them). */
export type ParticipantService = (typeof personalDataCategories)[PersonalDataCategory]["service"];
export const PersonalDataCategory = z.enum(
  Object.keys(personalDataCategories) as [PersonalDataCategory, ...PersonalDataCategory[]],
);

/** The categories one service answers for. */
export const categoriesOf = (service: ParticipantService): PersonalDataCategory[] =>
  (Object.keys(personalDataCategories) as PersonalDataCategory[]).filter(
    (c) => personalDataCategories[c].service === service,
  );

/** The participant route, as a template and filled in. */
export const PERSONAL_DATA_ROUTE = "/internal/v1/users/:sub/personal-data/:category";
export const personalDataPath = (sub: string, category: PersonalDataCategory) =>
  `/internal/v1/users/${sub}/personal-data/${category}`;
export const NDJSON = "application/x-ndjson";
export const RecordLine = z.strictObject({ record: z.unknown() });
export const EndLine = z.strictObject({ end: z.strictObject({ count: z.number().int().nonnegative() }) });
export const PartLine = z.union([RecordLine, EndLine]);

/** Bumped when a category's record shape changes incompatibly. */
export const ARCHIVE_SCHEMA_VERSION = 1;

/** `manifest.json`, the archive's table of contents. */
export const ArchiveManifest = z.strictObject({
  schema_version: z.literal(ARCHIVE_SCHEMA_VERSION),
  sub: Sub,
  job_id: ExportJobId,
  generated_at: Timestamp,
  categories: z.array(
    z.strictObject({ name: PersonalDataCategory, file: z.string(), description: z.string(), count: z.number().int() }),
  ),
});
export type ArchiveManifest = z.infer<typeof ArchiveManifest>;
