import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { decodeObject } from "../src/archive/format.ts";
import { domainEvent, newSub, newTenantId } from "../src/testing/events.ts";
import type { AuditHarness } from "../src/testing/harness.ts";
import { recordEvent } from "../src/verbs/record-event.ts";

/** Records `n` audit rows through the consumer's own write (one transaction each, as deliveries are). */
export async function recordRows(h: AuditHarness, n: number, occurredAt?: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const sub = newSub();
    const event = domainEvent(
      "MembershipAdded.v1",
      { tenant_id: newTenantId(), sub, role: "member" },
      { subject: sub, ...(occurredAt ? { occurred_at: occurredAt.toISOString() } : {}) },
    );
    await h.inTransaction((em) => recordEvent(em, h.schema, event, h.logger));
    ids.push(event.id);
  }
  return ids;
}

/** Every row id in the database (both tables), ascending, read as the owner. */
export async function liveRowIds(h: AuditHarness): Promise<string[]> {
  const rows = await h.asOwner<{ id: string }[]>(
    "SELECT id::text FROM audit_event UNION ALL SELECT id::text FROM audit_event_legacy ORDER BY 1",
  );
  return rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
}

/** Every row of every archive object under `prefix` (latest versions), as parsed lines, in key order. */
export async function archivedRows(s3: S3Client, bucket: string, prefix: string): Promise<Record<string, unknown>[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
  const out: Record<string, unknown>[] = [];
  for (const o of listed.Contents ?? []) {
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key! }));
    for (const line of decodeObject(await got.Body!.transformToByteArray()).lines) out.push(JSON.parse(line));
  }
  return out;
}

/** The `audit_archive_batch` rows, in sequence order. */
export async function batchRows(h: AuditHarness) {
  return h.asOwner<{ seq: string; object_key: string; first_row_id: string; last_row_id: string; row_count: number }[]>(
    "SELECT b.seq::text, b.object_key, b.first_row_id::text, b.last_row_id::text, b.row_count FROM audit_archive_batch b ORDER BY b.seq",
  );
}
