import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { freePort } from "./ports.ts";

describe("freePort", () => {
  it("never hands out a port it already chose, though nothing binds it yet (stacks choose before their services bind)", async () => {
    // 400 draws from 12,000 ports: without the reservation two of them coincide with a chance of
    // over 99.8% (the birthday bound); a stack's services bind their ports only once booted.
    const chosen: number[] = [];
    for (let i = 0; i < 400; i++) chosen.push(await freePort());
    assert.equal(new Set(chosen).size, chosen.length);
  });
});
