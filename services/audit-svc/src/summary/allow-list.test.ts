import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { eventCatalog } from "@flowstate/contracts/events/catalog";
import { describe, test } from "vitest";
import type { z } from "zod";
import { kinds, type SummaryField, summarize, summaryAllowList } from "./allow-list.ts";

const entries = Object.entries(summaryAllowList) as [string, Record<string, SummaryField> | null][];

/**
 * Values an audit summary must never hold: e-mail addresses, names (with a space, an apostrophe,
 * letters outside ASCII), IP addresses, tokens and keys as Flowstate mints them, free text. A
 * single bare word can look like a code or an id and is not a probe: the kinds are closed by
 * format, and the events carry no such field from a user (contracts/src/events/catalog.ts).
 */
const probes = {
  email: ["jane.doe@example.com", "JANE_DOE@EXAMPLE.COM", "a@b"],
  name: ["Jane Doe", "Zoë Ørsted", "O'Brien", "JANE DOE"],
  ip: ["203.0.113.7", "2001:db8::1", "::ffff:192.0.2.1", "10.0.0.1"],
  token: [
    `eyJhbGciOiJFZERTQSJ9.${randomBytes(24).toString("base64url")}.${randomBytes(32).toString("base64url")}`,
    `fs_${randomBytes(10).toString("hex")}_${randomBytes(32).toString("base64url")}`,
    `rt_${randomBytes(32).toString("base64url")}`,
    `Bearer ${randomBytes(32).toString("base64url")}`,
    randomBytes(32).toString("base64url"),
    randomBytes(32).toString("hex"),
    // Fixed as well as random: a hex token starting with a letter once passed as a tool name, in
    // about a third of the runs.
    "d682a5e4173993593473dce14914acbe0ba70baa7da022e768f34591dcce87d5",
  ],
  freeText: ["please call me back", "Hi, I'm the new admin!", "x".repeat(500), "<script>alert(1)</script>"],
};
const everyProbe = Object.entries(probes).flatMap(([what, values]) => values.map((v) => ({ what, value: v })));

/** The values a field could take as they would reach it: the probe itself, and inside an array. */
const shapes = (value: string) => [value, [value]];

describe("the summary allow-list", () => {
  test("decides for every entry of the event catalog: a list of fields, or explicitly none", () => {
    assert.deepEqual(Object.keys(summaryAllowList).sort(), Object.keys(eventCatalog).sort());
    for (const [key, entry] of entries) assert.ok(entry === null || Object.keys(entry).length > 0, key);
  });

  test("lists only fields that the event's own schema has", () => {
    for (const [key, entry] of entries) {
      if (!entry) continue;
      const schema = eventCatalog[key as keyof typeof eventCatalog] as unknown as z.ZodObject;
      for (const field of Object.keys(entry)) assert.ok(field in schema.shape, `${key}: ${field} is not in the event`);
    }
  });

  test("no listed field can hold an e-mail address, a name, an IP address, a token or free text", () => {
    const held: string[] = [];
    for (const [key, entry] of entries)
      for (const [field, schema] of Object.entries(entry ?? {}))
        for (const { what, value } of everyProbe)
          for (const shaped of shapes(value))
            if (schema.safeParse(shaped).success)
              held.push(`${key}.${field} holds a ${what}: ${JSON.stringify(shaped)}`);
    assert.deepEqual(held, []);
  });

  test("every kind refuses the probes too (a kind added later is checked before any event uses it)", () => {
    for (const [name, schema] of Object.entries(kinds))
      for (const { what, value } of everyProbe)
        for (const shaped of shapes(value))
          assert.equal(schema.safeParse(shaped).success, false, `kind ${name} holds a ${what}`);
  });

  test("keeps the listed fields whose values fit, leaves out the rest, and stores nothing for unlisted events", () => {
    const sub = "usr_0123456789abcdefghij";
    assert.deepEqual(
      summarize("OfferChangeFailed.v1", {
        tenant_id: "tnt_0123456789abcdefghij",
        change_set_id: "76yesvq5wk4p6wr3o8a9i0ifl",
        action: "create",
        failure_code: "CLIENT_ERROR",
        error_codes: ["INVALID_CURRENCY_CODE"],
        changes: [{ change_type: "CreateOffer", error_codes: ["INVALID_CURRENCY_CODE"] }],
        principal: "backend",
      }),
      {
        summary: {
          change_set_id: "76yesvq5wk4p6wr3o8a9i0ifl",
          action: "create",
          failure_code: "CLIENT_ERROR",
          error_codes: ["INVALID_CURRENCY_CODE"],
          principal: "backend",
        },
        dropped: [],
      },
    );
    assert.deepEqual(
      summarize("OfferChangeRequested.v1", { change_set_id: "Jane Doe", action: "create", principal: "backend" }),
      {
        summary: { action: "create", principal: "backend" },
        dropped: ["change_set_id"],
      },
    );
    assert.deepEqual(summarize("UserSignedUp.v1", { sub }), { summary: null, dropped: [] });
    assert.deepEqual(summarize("NoSuchEvent.v1", { sub }), { summary: null, dropped: [] });
    assert.deepEqual(summarize("toString", {}), { summary: null, dropped: [] });
  });
});
