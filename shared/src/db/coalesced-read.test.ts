import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { coalescedRead } from "./coalesced-read.ts";

/** A `run` whose statements the test answers by hand, recording the groups it was given. */
function manualRun() {
  const groups: string[][] = [];
  const pending: { keys: string[]; resolve: (rows: (string | undefined)[]) => void; reject: (e: Error) => void }[] = [];
  const run = (keys: string[]) =>
    new Promise<(string | undefined)[]>((resolve, reject) => {
      groups.push(keys);
      pending.push({ keys, resolve, reject });
    });
  const answerNext = () => {
    const p = pending.shift()!;
    p.resolve(p.keys.map((k) => (k.startsWith("missing") ? undefined : `row ${k}`)));
  };
  return { groups, pending, run, answerNext };
}
const settle = () => new Promise((r) => setImmediate(r));

describe("coalescedRead", () => {
  it("sends a read at once while a slot is free, and groups the reads that arrive while every slot is busy", async () => {
    const m = manualRun();
    const reader = coalescedRead({ maxInFlight: 1, maxBatch: 64, run: m.run });
    const first = reader.load("a");
    const rest = ["b", "missing-c", "b"].map((k) => reader.load(k));
    assert.deepEqual(m.groups, [["a"]]);
    m.answerNext();
    assert.equal(await first, "row a");
    await settle();
    assert.deepEqual(m.groups, [["a"], ["b", "missing-c", "b"]]);
    m.answerNext();
    assert.deepEqual(await Promise.all(rest), ["row b", undefined, "row b"]);
  });

  it("caps a group at maxBatch and sends the remainder as the next group", async () => {
    const m = manualRun();
    const reader = coalescedRead({ maxInFlight: 1, maxBatch: 2, run: m.run });
    const all = ["a", "b", "c", "d"].map((k) => reader.load(k));
    for (let i = 0; i < 3; i++) {
      m.answerNext();
      await settle();
    }
    assert.deepEqual(m.groups, [["a"], ["b", "c"], ["d"]]);
    assert.deepEqual(await Promise.all(all), ["row a", "row b", "row c", "row d"]);
  });

  it("rejects every read of a failed group, and only those", async () => {
    const m = manualRun();
    const reader = coalescedRead({ maxInFlight: 1, maxBatch: 64, run: m.run });
    const first = reader.load("a");
    const grouped = [reader.load("b"), reader.load("c")];
    m.pending.shift()!.reject(new Error("connection lost"));
    await assert.rejects(first, /connection lost/);
    await settle();
    m.answerNext();
    assert.deepEqual(await Promise.all(grouped), ["row b", "row c"]);
  });
});
