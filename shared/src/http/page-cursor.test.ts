import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { z } from "zod";
import { DomainError } from "../errors/domain-error.ts";
import { cursorBigint, cursorText, cursorTimestamp, pageCursorCodec } from "./page-cursor.ts";

const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

describe("pageCursorCodec", () => {
  const codec = pageCursorCodec(z.tuple([cursorTimestamp, cursorBigint]));

  it("gives back the position it encoded", () => {
    const position: [string, string] = ["2026-11-23T10:04:00.123456+00:00", "42"];
    assert.deepEqual(codec.decode(codec.encode(position)), position);
  });

  it("refuses with 400 INVALID_CURSOR what it did not encode: forged shapes, values PostgreSQL would refuse, non-JSON", () => {
    for (const cursor of [
      forged(["1", "1"]),
      forged(["0000-01-01T00:00:00Z", "1"]),
      forged(["2026-11-01T00:00:00+23:59", "1"]),
      forged(["2026-11-01T00:00:00Z", "99999999999999999999"]),
      forged(["2026-11-01T00:00:00Z", "1", "x"]),
      forged({ at: "2026-11-01T00:00:00Z" }),
      "bm90LWEtY3Vyc29y",
      "",
    ]) {
      assert.throws(
        () => codec.decode(cursor),
        (e: unknown) => e instanceof DomainError && e.code === "INVALID_CURSOR" && e.kind === "invalid",
        cursor,
      );
    }
  });

  it("keeps a NUL or control character out of a text key", () => {
    const text = pageCursorCodec(z.tuple([cursorTimestamp, cursorText]));
    assert.throws(() => text.decode(forged(["2026-11-01T00:00:00Z", "a\u0000b"])), DomainError);
    assert.deepEqual(text.decode(forged(["2026-11-01T00:00:00Z", "O-1"])), ["2026-11-01T00:00:00Z", "O-1"]);
  });
});
