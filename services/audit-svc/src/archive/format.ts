import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";

/**
 * One archive object: gzip of JSON lines, the first line the manifest, every other line one audit
 * row. The manifest is embedded rather than a second object because one PutObject is atomic: an
 * object and its manifest can never exist one without the other after a crash, Object Lock keeps
 * both under one retention, and `verify` needs one GET per batch.
 *
 * Nothing in the manifest depends on the clock or the process: a batch rebuilt after a crash has
 * byte-identical lines, so "the same batch" is decided by the manifest hash (gzip bytes could differ
 * between zlib builds; the uncompressed lines cannot).
 */
export const MANIFEST_FORMAT = "flowstate.audit-archive/v1";

/** The `prev_manifest_sha256` of the first object: there is nothing before it. */
export const GENESIS_HASH = "0".repeat(64);

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const rowId = z.string().regex(/^(0|[1-9][0-9]{0,18})$/);

export const ArchiveManifest = z.strictObject({
  manifest: z.literal(MANIFEST_FORMAT),
  /** 1, 2, 3, … without gaps: the order `verify` walks and the chain follows. */
  seq: z.number().int().min(1),
  /** The key the object was written under; an object found under another key is a break. */
  key: z.string().min(1),
  /** The batch holds every row with after_id < id <= last_id; after_id is the previous batch's last_id. */
  after_id: rowId,
  first_id: rowId,
  last_id: rowId,
  count: z.number().int().min(1),
  /** SHA-256 (hex) of the row lines: everything after the manifest line, each line ending in "\n". */
  content_sha256: sha256Hex,
  /** SHA-256 (hex) of the previous object's manifest line; GENESIS_HASH for seq 1. */
  prev_manifest_sha256: sha256Hex,
});
export type ArchiveManifest = z.infer<typeof ArchiveManifest>;

/** One audit row as archived: its id and its JSON text on one line. */
export interface ArchiveRow {
  id: string;
  line: string;
}

export interface EncodedBatch {
  manifest: ArchiveManifest;
  /** SHA-256 (hex) of the manifest line: the link the next object's manifest carries. */
  manifestSha256: string;
  /** The gzip object body. */
  body: Buffer;
}

const hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** The manifest as one line with a fixed key order (the schema's), so its hash is reproducible. */
function manifestLine(m: ArchiveManifest): string {
  return JSON.stringify(ArchiveManifest.parse(m));
}

/**
 * Encodes one batch. Rows in ascending id order, all above `afterId`; each line one JSON text.
 *
 * @example
 * const batch = encodeBatch({ seq: 1, key, afterId: "0", prevManifestSha256: GENESIS_HASH, rows });
 * await putArchiveObject(s3, bucket, batch);
 */
export function encodeBatch(input: {
  seq: number;
  key: string;
  afterId: string;
  prevManifestSha256: string;
  rows: readonly ArchiveRow[];
}): EncodedBatch {
  const { rows } = input;
  if (rows.length === 0) throw new Error("an archive batch holds at least one row");
  let previous = BigInt(input.afterId);
  for (const row of rows) {
    if (BigInt(row.id) <= previous) throw new Error(`rows out of order at id ${row.id}`);
    if (row.line.includes("\n")) throw new Error(`row ${row.id} is not one line`);
    previous = BigInt(row.id);
  }
  const content = rows.map((r) => `${r.line}\n`).join("");
  const manifest: ArchiveManifest = {
    manifest: MANIFEST_FORMAT,
    seq: input.seq,
    key: input.key,
    after_id: input.afterId,
    first_id: rows[0]!.id,
    last_id: rows.at(-1)!.id,
    count: rows.length,
    content_sha256: hex(content),
    prev_manifest_sha256: input.prevManifestSha256,
  };
  const head = manifestLine(manifest);
  // Level 9: written once, kept 2555 days; the CPU is cheap next to seven years of storage.
  const body = gzipSync(Buffer.from(`${head}\n${content}`), { level: 9 });
  return { manifest, manifestSha256: hex(head), body };
}

export class MalformedArchiveObject extends Error {
  override name = "MalformedArchiveObject";
}

export interface DecodedObject {
  manifest: ArchiveManifest;
  manifestSha256: string;
  /** SHA-256 of the row lines as found (to compare with `manifest.content_sha256`). */
  contentSha256: string;
  /** The row lines, without their newlines. */
  lines: string[];
}

/**
 * Decodes an archive object without trusting it: a body that is not gzip, has no valid manifest
 * line, a manifest line not in canonical form, or a cut-off last line throws MalformedArchiveObject.
 * The content hash is recomputed, never read from the manifest.
 */
export function decodeObject(body: Uint8Array): DecodedObject {
  let text: string;
  try {
    text = gunzipSync(body).toString("utf8");
  } catch {
    throw new MalformedArchiveObject("not a gzip stream");
  }
  const newline = text.indexOf("\n");
  if (newline < 0) throw new MalformedArchiveObject("no manifest line");
  const head = text.slice(0, newline);
  let parsed: unknown;
  try {
    parsed = JSON.parse(head);
  } catch {
    throw new MalformedArchiveObject("the manifest line is not JSON");
  }
  const manifest = ArchiveManifest.safeParse(parsed);
  if (!manifest.success) throw new MalformedArchiveObject("the manifest line is not a v1 manifest");
  // The chain links the manifest bytes as written: a manifest re-serialised differently (spacing,
  // key order) would hash differently, so only the canonical form is accepted.
  if (manifestLine(manifest.data) !== head) throw new MalformedArchiveObject("the manifest line is not canonical");
  const content = text.slice(newline + 1);
  if (content !== "" && !content.endsWith("\n")) throw new MalformedArchiveObject("the last row line is cut off");
  const lines = content === "" ? [] : content.slice(0, -1).split("\n");
  return { manifest: manifest.data, manifestSha256: hex(head), contentSha256: hex(content), lines };
}
