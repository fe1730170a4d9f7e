import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type ZipEntry, zipStream } from "./zip-writer.ts";

const run = promisify(execFile);

async function collect(entries: ZipEntry[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(entries, new Date("2026-11-21T10:11:12Z"))) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const text = (...parts: string[]) =>
  async function* () {
    for (const p of parts) yield p;
  };

describe("zipStream", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "zip-writer-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Writes the archive and reads it back with Info-ZIP and with Python's zipfile, which share no code with ours. */
  async function readBack(bytes: Buffer): Promise<Record<string, string>> {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.zip`);
    await writeFile(file, bytes);
    await run("unzip", ["-tq", file]);
    const py = await run("python3", [
      "-c",
      "import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n" +
        "print(json.dumps({i.filename: z.read(i).decode('utf-8') for i in z.infolist()}))",
      file,
    ]);
    return JSON.parse(py.stdout);
  }

  it("writes entries that Info-ZIP and Python read back byte for byte, empty and large ones included", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `{"n":${i},"r":"${Math.random()}"}\n`);
    const bytes = await collect([
      { name: "manifest.json", content: text('{"a":', "1}") },
      { name: "empty.json", content: text() },
      { name: "big.json", content: text(...big) },
      {
        name: "ünïcode-名前.json",
        content: async function* () {
          yield Buffer.from('"héllo ✓"');
        },
      },
    ]);
    const files = await readBack(bytes);
    assert.deepEqual(Object.keys(files), ["manifest.json", "empty.json", "big.json", "ünïcode-名前.json"]);
    assert.equal(files["manifest.json"], '{"a":1}');
    assert.equal(files["empty.json"], "");
    assert.equal(files["big.json"], big.join(""));
    assert.equal(files["ünïcode-名前.json"], '"héllo ✓"');
  });

  it("pulls an entry's content only once the previous entry is written", async () => {
    const order: string[] = [];
    const entry = (name: string): ZipEntry => ({
      name,
      content: async function* () {
        order.push(`open ${name}`);
        yield name;
        order.push(`done ${name}`);
      },
    });
    await collect([entry("a"), entry("b")]);
    assert.deepEqual(order, ["open a", "done a", "open b", "done b"]);
  });

  it("rejects, instead of ending the archive, when an entry's content fails", async () => {
    const chunks: Buffer[] = [];
    const failing = zipStream([
      { name: "ok.json", content: text("{}") },
      {
        name: "broken.json",
        content: async function* () {
          yield "[";
          throw new Error("the participant went away");
        },
      },
      { name: "never.json", content: text("{}") },
    ]);
    await assert.rejects(
      (async () => {
        for await (const c of failing) chunks.push(c);
      })(),
      /the participant went away/,
    );
    const bytes = Buffer.concat(chunks);
    assert.equal(bytes.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])), false, "no end-of-central-directory record");
    assert.equal(bytes.includes(Buffer.from("never.json")), false);
  });
});
