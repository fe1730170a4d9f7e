import assert from "node:assert/strict";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, test } from "vitest";
import { decodeObject, encodeBatch, GENESIS_HASH, MalformedArchiveObject } from "./format.ts";
import { ARCHIVE_PREFIX, archiveKey, parseArchiveKey } from "./keys.ts";

const rows = [
  { id: "3", line: '{"id": 3, "table": "audit_event", "event_type": "TenantCreated"}' },
  { id: "7", line: '{"id": 7, "table": "audit_event", "event_type": "MemberAdded"}' },
];
const batch = () =>
  encodeBatch({
    seq: 1,
    key: "audit-events/2026/11/23/000000000001.jsonl.gz",
    afterId: "0",
    prevManifestSha256: GENESIS_HASH,
    rows,
  });

describe("the archive object format", () => {
  test("an object decodes to its manifest and rows, and its hashes are recomputed, not read", () => {
    const b = batch();
    const d = decodeObject(b.body);
    assert.deepEqual(d.manifest, b.manifest);
    assert.equal(d.manifestSha256, b.manifestSha256);
    assert.equal(d.contentSha256, b.manifest.content_sha256);
    assert.deepEqual(
      d.lines,
      rows.map((r) => r.line),
    );
    assert.deepEqual(
      [d.manifest.after_id, d.manifest.first_id, d.manifest.last_id, d.manifest.count],
      ["0", "3", "7", 2],
    );
  });

  test("the same batch encodes to the same manifest hash every time (a re-archive is recognisable)", () => {
    assert.equal(batch().manifestSha256, batch().manifestSha256);
    assert.deepEqual(batch().body, batch().body);
  });

  test("the manifest hash covers the previous link, the range and the content", () => {
    const base = batch();
    const other = (over: Partial<Parameters<typeof encodeBatch>[0]>) =>
      encodeBatch({ seq: 1, key: base.manifest.key, afterId: "0", prevManifestSha256: GENESIS_HASH, rows, ...over })
        .manifestSha256;
    assert.notEqual(other({ prevManifestSha256: "a".repeat(64) }), base.manifestSha256);
    assert.notEqual(other({ afterId: "1" }), base.manifestSha256);
    assert.notEqual(other({ rows: [rows[0]!] }), base.manifestSha256);
    assert.notEqual(other({ rows: [rows[0]!, { id: "7", line: '{"id": 7}' }] }), base.manifestSha256);
  });

  test("refuses rows out of order, at or below the start, multi-line, or none", () => {
    const enc = (r: typeof rows, afterId = "0") =>
      encodeBatch({ seq: 1, key: "k", afterId, prevManifestSha256: GENESIS_HASH, rows: r });
    assert.throws(() => enc([rows[1]!, rows[0]!]), /out of order/);
    assert.throws(() => enc(rows, "3"), /out of order/);
    assert.throws(() => enc([{ id: "3", line: "{\n}" }]), /not one line/);
    assert.throws(() => enc([]), /at least one row/);
  });

  test("a body that is not gzip, lacks a manifest, or has a re-serialised manifest is malformed", () => {
    const text = gunzipSync(batch().body).toString();
    const [head, ...rest] = text.split("\n");
    const respaced = JSON.stringify(JSON.parse(head!), null, 1).replaceAll("\n", "");
    for (const body of [
      Buffer.from("plain"),
      gzipSync(""),
      gzipSync("{}\n"),
      gzipSync(`${respaced}\n${rest.join("\n")}`),
      gzipSync(text.slice(0, -1)),
    ]) {
      assert.throws(() => decodeObject(body), MalformedArchiveObject);
    }
  });
});

describe("archive keys", () => {
  test("name the day of the first row (UTC) and the sequence, and parse back to the sequence", () => {
    const key = archiveKey(ARCHIVE_PREFIX, 42, new Date("2026-11-23T23:59:59.999+00:00"));
    assert.equal(key, "audit-events/2026/11/23/000000000042.jsonl.gz");
    assert.equal(parseArchiveKey(ARCHIVE_PREFIX, key), 42);
    assert.equal(archiveKey("p", 1, new Date("2026-11-24T00:30:00+01:00")), "p/2026/11/23/000000000001.jsonl.gz");
  });

  test("other keys are not archive keys", () => {
    for (const key of [
      "audit-events/2026/11/23/42.jsonl.gz",
      "other/2026/11/23/000000000042.jsonl.gz",
      "audit-events/2026/11/23/000000000000.jsonl.gz",
      "audit-events/2026/11/23/000000000042.jsonl",
    ]) {
      assert.equal(parseArchiveKey(ARCHIVE_PREFIX, key), undefined, key);
    }
    assert.throws(() => archiveKey(ARCHIVE_PREFIX, 0, new Date()), RangeError);
  });
});
