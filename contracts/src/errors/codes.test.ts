import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { problemCodes } from "./codes.ts";
import { Problem } from "./problem.ts";

describe("the problem code catalog", () => {
  it("gives every code a problem status and a meaning, in the form the Problem schema accepts", () => {
    for (const [code, { status, meaning }] of Object.entries(problemCodes)) {
      assert.ok(Problem.shape.code.safeParse(code).success, code);
      assert.ok(status >= 400 && status <= 599, code);
      assert.match(meaning, /^[A-Z].*\.$/, `${code}: a sentence`);
    }
  });
});
