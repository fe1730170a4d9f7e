import assert from "node:assert/strict";
import { describe, it } from "vitest";
import type { z } from "zod";
import { routes } from "./rest/routes.ts";
import { BIDI_CONTROL_CHARACTERS as BIDI } from "./testing/bidi-controls.ts";
import { BIDI_MESSAGE, FreeText, freeTextKeys } from "./text.ts";

const Name = FreeText(100);
const messages = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues.map((i) => i.message) ?? [];

describe("FreeText", () => {
  it("refuses every bidirectional control, wherever it is in the text", () => {
    for (const c of BIDI) {
      for (const text of [`evil${c}gpj.exe`, `${c}Acme`, `Acme${c}x`]) {
        const r = Name.safeParse(text);
        assert.equal(r.success, false, JSON.stringify(text));
        assert.ok(messages(r).includes(BIDI_MESSAGE));
      }
    }
  });

  it("refuses lone surrogates and control characters, and allows line feeds only where lines are allowed", () => {
    assert.deepEqual(messages(Name.safeParse("a\ud800b")), ["must be well-formed Unicode"]);
    for (const c of ["\u0000", "\u0007", "\n", "\u001b", "\u007f", "\u0085"])
      assert.equal(Name.safeParse(`a${c}b`).success, false, JSON.stringify(c));
    const Description = FreeText(255, { lines: true });
    assert.equal(Description.safeParse("line one\nline two").success, true);
    assert.equal(Description.safeParse("a\u0000b").success, false);
    assert.equal(Description.safeParse("a\u202Eb").success, false);
  });

  it("keeps every legitimate name: right-to-left scripts, combining marks, emoji sequences with joiners", () => {
    for (const text of [
      "محمد عبد الله",
      "שרה כהן",
      "Zoë Ångström",
      "李小龍",
      "👩‍👩‍👧 family",
      "क्षत्रिय",
      "Acme GmbH & Co. KG",
    ])
      assert.equal(Name.parse(text), text);
  });

  it("trims and bounds the length as before", () => {
    assert.equal(Name.parse("  Acme  "), "Acme");
    assert.equal(Name.safeParse("   ").success, false);
    assert.equal(Name.safeParse("x".repeat(101)).success, false);
  });
});

describe("the free-text fields of the registry", () => {
  const expected = {
    "auth.signup": ["name"],
    "users.me.update": ["name"],
    "tenants.create": ["name"],
    "tenants.rename": ["name"],
    "api_keys.create": ["name"],
    "oauth.register": ["client_name"],
    "offers.create": ["name", "description"],
    "offers.clone": ["name", "description"],
    "offers.update": ["name", "description"],
    "agreements.replacement_offers.create": ["name", "description"],
    "notifications.endpoints.create": ["description"],
  };

  it("are the names and descriptions people type and others read (the decision in contracts/src/text.ts)", () => {
    const found = Object.fromEntries(
      routes.filter((r) => r.body && freeTextKeys(r.body).length).map((r) => [r.id, freeTextKeys(r.body!)]),
    );
    assert.deepEqual(found, expected);
  });

  it("refuse a bidi control with an issue on that field, whatever else the body holds", () => {
    for (const route of routes.filter((r) => r.body)) {
      for (const key of freeTextKeys(route.body!)) {
        const r = route.body!.safeParse({ [key]: "Acme\u202Egpj" });
        assert.equal(r.success, false);
        const issue = r.error?.issues.find((i) => i.path.join(".") === key && i.message === BIDI_MESSAGE);
        assert.ok(issue, `${route.id}.${key}`);
      }
    }
  });
});
