/**
 * Archive object keys: `<prefix>/<yyyy>/<mm>/<dd>/<seq, 12 digits>.jsonl.gz`. The date is the UTC
 * day the batch's first row was recorded, never the day it was archived, so a batch re-archived
 * after a crash (even past midnight) gets the same key. The sequence is the batch's place in the
 * chain; `verify` orders by it, not by key, because the day of batch n+1's first row may be a
 * concurrent insert's earlier timestamp.
 */
/** Where audit-svc's objects live in the archive bucket. */
export const ARCHIVE_PREFIX = "audit-events";

const KEY = /^(?<prefix>.+)\/(?<y>\d{4})\/(?<m>\d{2})\/(?<d>\d{2})\/(?<seq>\d{12})\.jsonl\.gz$/;

/** The key for batch `seq` whose first row was recorded at `firstRecordedAt`. */
export function archiveKey(prefix: string, seq: number, firstRecordedAt: Date): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq >= 1e12) throw new RangeError(`bad sequence ${seq}`);
  const day = firstRecordedAt.toISOString().slice(0, 10).replaceAll("-", "/");
  return `${prefix}/${day}/${String(seq).padStart(12, "0")}.jsonl.gz`;
}

/** The sequence number of an archive key under `prefix`, or undefined for any other key. */
export function parseArchiveKey(prefix: string, key: string): number | undefined {
  const m = KEY.exec(key);
  if (!m?.groups || m.groups.prefix !== prefix) return undefined;
  const seq = Number(m.groups.seq);
  return seq >= 1 ? seq : undefined;
}
