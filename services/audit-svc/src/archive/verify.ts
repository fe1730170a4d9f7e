import { GetObjectCommand, ListObjectVersionsCommand, type S3Client } from "@aws-sdk/client-s3";
import { type ArchiveManifest, decodeObject, GENESIS_HASH, MalformedArchiveObject } from "./format.ts";
import { parseArchiveKey } from "./keys.ts";

export type BreakReason =
  | "unexpected-key"
  | "duplicate-sequence"
  | "missing-object"
  | "overwritten"
  | "deleted"
  | "malformed"
  | "wrong-key"
  | "content-hash"
  | "row-ids"
  | "chain"
  | "id-continuity"
  | "recorded-hash";

export interface ArchiveBreak {
  /** The object where the chain breaks (for a missing batch, the first object after the gap). */
  key: string;
  seq: number | undefined;
  reason: BreakReason;
  detail: string;
}

/** What the database recorded for one archived batch. */
export interface RecordedBatch {
  key: string;
  manifestSha256: string;
}

export type VerifyResult =
  | { ok: true; objects: number; rows: number; lastSeq: number; lastId: string; headSha256: string }
  | { ok: false; objectsVerified: number; break: ArchiveBreak };

/** Objects downloaded ahead of the one being checked. */
const PREFETCH = 8;

interface KeyVersions {
  key: string;
  /** Oldest first: the first is what the archiver wrote, any other is a later write. */
  versions: { versionId: string; lastModified: number }[];
  deleteMarkers: number;
}

async function listKeys(s3: S3Client, bucket: string, prefix: string): Promise<Map<string, KeyVersions>> {
  const keys = new Map<string, KeyVersions>();
  const entry = (key: string) => {
    const e = keys.get(key) ?? { key, versions: [], deleteMarkers: 0 };
    keys.set(key, e);
    return e;
  };
  let KeyMarker: string | undefined;
  let VersionIdMarker: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectVersionsCommand({ Bucket: bucket, Prefix: `${prefix}/`, KeyMarker, VersionIdMarker }),
    );
    for (const v of page.Versions ?? []) {
      entry(v.Key!).versions.push({ versionId: v.VersionId ?? "null", lastModified: v.LastModified?.getTime() ?? 0 });
    }
    for (const d of page.DeleteMarkers ?? []) entry(d.Key!).deleteMarkers++;
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    VersionIdMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
  } while (KeyMarker);
  for (const e of keys.values()) e.versions.sort((a, b) => a.lastModified - b.lastModified);
  return keys;
}

/** The `id` of a row line (a JSON number or string), or undefined when the line has none. */
function lineId(line: string): bigint | undefined {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === "number" || typeof id === "string" ? BigInt(id) : undefined;
  } catch {
    return undefined;
  }
}

function rowIdProblem(m: ArchiveManifest, lines: string[]): string | undefined {
  if (lines.length !== m.count) return `manifest counts ${m.count} rows, the object holds ${lines.length}`;
  let previous = BigInt(m.after_id);
  for (const [i, line] of lines.entries()) {
    const id = lineId(line);
    if (id === undefined) return `row line ${i + 1} has no id`;
    if (id <= previous) return `row line ${i + 1} (id ${id}) is not above ${previous}`;
    previous = id;
  }
  if (lineId(lines[0]!) !== BigInt(m.first_id)) return `first row is not first_id ${m.first_id}`;
  if (previous !== BigInt(m.last_id)) return `last row is not last_id ${m.last_id}`;
  return undefined;
}

/**
 * Walks the archive under `prefix` in sequence order and stops at the first break: a gap in the
 * sequence, an object overwritten (a second version) or hidden by a delete marker, a body that is
 * not an archive object, a manifest naming another key or sequence, content that does not hash to
 * the manifest, row ids outside the manifest's range, a manifest that does not link to the previous
 * one, or a batch that does not start where the previous one ended. Each object is checked in the
 * version first written under its key (the one Object Lock keeps).
 *
 * @example
 * const result = await verifyArchive({ s3: aws.data("s3"), bucket, prefix: "audit" });
 * if (!result.ok) console.error(`${result.break.key}: ${result.break.reason}`);
 */
export async function verifyArchive(options: {
  s3: S3Client;
  bucket: string;
  prefix: string;
  /**
   * The manifest hash the database recorded for each batch (batch-store.ts `recordedManifests`).
   * The chain alone cannot tell a consistently rewritten last object, nor a missing tail; these can.
   */
  recorded?: ReadonlyMap<number, RecordedBatch>;
}): Promise<VerifyResult> {
  const { s3, bucket, prefix, recorded } = options;
  const keys = await listKeys(s3, bucket, prefix);
  const ordered: { seq: number; entry: KeyVersions }[] = [];
  for (const entry of keys.values()) {
    const seq = parseArchiveKey(prefix, entry.key);
    const fail = (reason: BreakReason, detail: string): VerifyResult => ({
      ok: false,
      objectsVerified: 0,
      break: { key: entry.key, seq, reason, detail },
    });
    if (seq === undefined) return fail("unexpected-key", "not an archive object key, under the archive prefix");
    ordered.push({ seq, entry });
  }
  ordered.sort((a, b) => a.seq - b.seq || a.entry.key.localeCompare(b.entry.key));

  let prevSha = GENESIS_HASH;
  let prevLastId = "0";
  let rows = 0;
  // The walk is in order, the downloads need not be: a few objects ahead are fetched at once.
  const bodies = new Map<number, Promise<Uint8Array>>();
  const fetchBody = (i: number): Promise<Uint8Array> => {
    const started = bodies.get(i);
    if (started) return started;
    const original = ordered[i]!.entry.versions[0]!;
    const body = s3
      .send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: ordered[i]!.entry.key,
          ...(original.versionId === "null" ? {} : { VersionId: original.versionId }),
        }),
      )
      .then(async (got) => (await got.Body?.transformToByteArray()) ?? new Uint8Array());
    // A download fetched ahead of a break is never awaited: its failure must not go unhandled.
    body.catch(() => undefined);
    bodies.set(i, body);
    return body;
  };
  for (const [i, { seq, entry }] of ordered.entries()) {
    const fail = (reason: BreakReason, detail: string): VerifyResult => ({
      ok: false,
      objectsVerified: i,
      break: { key: entry.key, seq, reason, detail },
    });
    if (seq === i) return fail("duplicate-sequence", `a second object with sequence ${seq}`);
    if (seq !== i + 1) return fail("missing-object", `sequence ${i + 1} is missing before this object`);
    if (entry.deleteMarkers > 0) return fail("deleted", `${entry.deleteMarkers} delete marker(s) hide the object`);
    if (entry.versions.length > 1) return fail("overwritten", `${entry.versions.length} versions under the key`);
    for (let ahead = i + 1; ahead < Math.min(ordered.length, i + PREFETCH); ahead++) {
      const e = ordered[ahead]!.entry;
      if (e.versions.length === 1 && e.deleteMarkers === 0) fetchBody(ahead);
    }
    const body = await fetchBody(i);
    bodies.delete(i);
    let decoded: ReturnType<typeof decodeObject>;
    try {
      decoded = decodeObject(body);
    } catch (err) {
      if (err instanceof MalformedArchiveObject) return fail("malformed", err.message);
      throw err;
    }
    const m = decoded.manifest;
    if (m.key !== entry.key || m.seq !== seq) return fail("wrong-key", `the manifest names ${m.key} (seq ${m.seq})`);
    if (decoded.contentSha256 !== m.content_sha256) return fail("content-hash", "the rows do not hash to the manifest");
    const idProblem = rowIdProblem(m, decoded.lines);
    if (idProblem) return fail("row-ids", idProblem);
    if (m.prev_manifest_sha256 !== prevSha) {
      const previous = i > 0 ? ordered[i - 1]!.entry.key : "none (genesis)";
      return fail("chain", `prev_manifest_sha256 is not the hash of the previous manifest (${previous})`);
    }
    if (m.after_id !== prevLastId)
      return fail("id-continuity", `starts after id ${m.after_id}, the previous batch ended at ${prevLastId}`);
    const expected = recorded?.get(seq);
    if (recorded && expected?.manifestSha256 !== decoded.manifestSha256) {
      return fail(
        "recorded-hash",
        expected
          ? "the manifest is not the one recorded when it was archived"
          : "no archived batch is recorded with this sequence",
      );
    }
    prevSha = decoded.manifestSha256;
    prevLastId = m.last_id;
    rows += m.count;
  }
  const recordedMore = recorded ? [...recorded.keys()].filter((seq) => seq > ordered.length).sort((a, b) => a - b) : [];
  if (recordedMore.length > 0) {
    return {
      ok: false,
      objectsVerified: ordered.length,
      break: {
        key: recorded!.get(recordedMore[0]!)!.key,
        seq: recordedMore[0],
        reason: "missing-object",
        detail: `the database recorded ${recordedMore.length} batch(es) after the last object in the bucket`,
      },
    };
  }
  return { ok: true, objects: ordered.length, rows, lastSeq: ordered.length, lastId: prevLastId, headSha256: prevSha };
}
