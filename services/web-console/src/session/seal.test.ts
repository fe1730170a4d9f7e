import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "vitest";
import { localReturn } from "../routes/auth-routes.ts";
import { createSealer, tokensEqual } from "./seal.ts";

describe("sealing tokens at rest", () => {
  const sealer = createSealer(randomBytes(32));

  it("opens what it sealed for the same row only", () => {
    const sealed = sealer.seal("ort_refresh-token", "session:a");
    assert.equal(sealer.open(sealed, "session:a"), "ort_refresh-token");
    assert.equal(sealer.open(sealed, "session:b"), null, "moved to another row");
    assert.doesNotMatch(sealed.toString("latin1"), /ort_/);
  });

  it("refuses a tampered value and another key's", () => {
    const sealed = sealer.seal("token", "session:a");
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    assert.equal(sealer.open(tampered, "session:a"), null);
    assert.equal(createSealer(randomBytes(32)).open(sealed, "session:a"), null);
  });

  it("makes CSRF tokens per purpose and value, compared in constant time", () => {
    const token = sealer.mac("csrf", "hash");
    assert.equal(tokensEqual(token, sealer.mac("csrf", "hash")), true);
    assert.equal(tokensEqual(token, sealer.mac("csrf-anonymous", "hash")), false);
    assert.equal(tokensEqual(token, sealer.mac("csrf", "other")), false);
    assert.equal(tokensEqual(token, `${token}x`), false);
  });
});

describe("where a sign-in returns to", () => {
  it("is a console path, never another origin", () => {
    assert.equal(localReturn("/app/t/tnt_x/offers?state=draft"), "/app/t/tnt_x/offers?state=draft");
    for (const bad of [
      "https://evil.example/app",
      "//evil.example/app",
      "/appx",
      "/app\\evil",
      "/oauth/authorize",
      undefined,
    ])
      assert.equal(localReturn(bad), "/app/tenants", String(bad));
  });
});
