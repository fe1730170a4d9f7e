import assert from "node:assert/strict";
import { type ProblemCode, problemCodes } from "@flowstate/contracts/errors/codes";
import { HTTPException } from "hono/http-exception";
import { describe, it } from "vitest";
import { z } from "zod";
import { DomainError, type ErrorKind, STATUS_BY_KIND } from "../errors/domain-error.ts";
import { expectProblem } from "../testing/problem.ts";
import { appWithLogs } from "./testdata.ts";

describe("error mapping", () => {
  it("renders every catalog code with its status, detail and extensions", async () => {
    const { app } = appWithLogs();
    const kindOf = (status: number) =>
      (Object.keys(STATUS_BY_KIND) as ErrorKind[]).find((k) => STATUS_BY_KIND[k] === status);
    app.get("/fail/:code", (c) => {
      const code = c.req.param("code") as ProblemCode;
      const kind = kindOf(problemCodes[code].status);
      if (!kind) return c.body(null, 204); // statuses only the HTTP layer answers (405, 415, …)
      throw new DomainError(kind as never, code, "what went wrong", {
        extensions: { step: "assume_role", status: 999, code: "OVERRIDE" },
      });
    });
    for (const [code, { status }] of Object.entries(problemCodes)) {
      const res = await app.request(`/fail/${code}`);
      if (res.status === 204) continue;
      const problem = await expectProblem(res, status, code);
      assert.equal(problem.detail, "what went wrong");
      assert.equal(problem.step, "assume_role", "extensions become members");
      assert.equal(problem.type, `https://docs.flowstate.dev/problems/${code.toLowerCase().replaceAll("_", "-")}`);
    }
  });

  it("does not compile a code outside the catalog, or a kind that disagrees with the code's status", () => {
    // @ts-expect-error not a catalog code
    void new DomainError("not_found", "NO_SUCH_CODE", "x");
    // @ts-expect-error NOT_FOUND is a 404, not a conflict
    void new DomainError("conflict", "NOT_FOUND", "x");
    void new DomainError("not_found", "NOT_FOUND", "x");
  });

  it("sends Retry-After for rate_limited and unavailable, defaulting to 1 second", async () => {
    const { app } = appWithLogs();
    app.get("/slow", () => {
      throw new DomainError("rate_limited", "RATE_LIMITED", "slow down", { retryAfter: 30 });
    });
    app.get("/down", () => {
      throw new DomainError("unavailable", "UPSTREAM_UNAVAILABLE", "try later");
    });
    assert.equal((await app.request("/slow")).headers.get("retry-after"), "30");
    const down = await app.request("/down");
    assert.equal(down.headers.get("retry-after"), "1");
    await expectProblem(down, 503, "UPSTREAM_UNAVAILABLE");
  });

  it("turns a zod error into 400 VALIDATION_FAILED with path, code and message per issue", async () => {
    const { app } = appWithLogs();
    app.get("/zod", () => {
      z.object({ items: z.array(z.object({ id: z.string() })) }).parse({ items: [{ id: 1 }] });
      return new Response("unreachable");
    });
    const problem = await expectProblem(await app.request("/zod"), 400, "VALIDATION_FAILED");
    assert.deepEqual(
      problem.errors?.map((e) => [e.path, e.code]),
      [["items.0.id", "invalid_type"]],
    );
  });

  it("answers 500 INTERNAL_ERROR without the cause's text, and logs the cause with its stack", async () => {
    const { app, logs } = appWithLogs();
    app.get("/boom", () => {
      throw new Error('relation "identity.users" does not exist', { cause: new Error("pg 42P01") });
    });
    const res = await app.request("/boom");
    const text = await res.clone().text();
    await expectProblem(res, 500, "INTERNAL_ERROR");
    assert.doesNotMatch(text, /relation|identity\.users|42P01|at /);
    const line = logs.lines.find((l) => l.status === 500)!;
    assert.equal(line.level, "error");
    const err = line.err as { message: string; stack: string };
    assert.match(err.message, /does not exist/);
    assert.match(err.stack, /caused by: Error: pg 42P01/);
  });

  it("answers 500 even when something other than an Error is thrown", async () => {
    const { app, logs } = appWithLogs();
    app.get("/string", () => {
      throw "a bare string";
    });
    await expectProblem(await app.request("/string"), 500, "INTERNAL_ERROR");
    assert.equal(logs.lines.at(-1)?.level, "error");
  });

  it("renders Hono's own HTTP exceptions as problems with a stable code", async () => {
    const { app } = appWithLogs();
    app.get("/hono", () => {
      throw new HTTPException(401, { message: "no credentials" });
    });
    await expectProblem(await app.request("/hono"), 401, "UNAUTHENTICATED");
  });

  it("answers 404 NOT_FOUND for an unknown route", async () => {
    const { app } = appWithLogs();
    await expectProblem(await app.request("/nope"), 404, "NOT_FOUND");
  });

  it("answers 405 with Allow for a known path under another method", async () => {
    const { app } = appWithLogs();
    app.post("/v1/things/:id", (c) => c.body(null, 204));
    app.delete("/v1/things/:id", (c) => c.body(null, 204));
    const res = await app.request("/v1/things/abc", { method: "PUT" });
    assert.equal(res.headers.get("allow"), "POST, DELETE");
    await expectProblem(res, 405, "METHOD_NOT_ALLOWED");
    await expectProblem(await app.request("/healthz", { method: "POST" }), 405, "METHOD_NOT_ALLOWED");
  });
});
