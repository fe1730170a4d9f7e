import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { expectProblem } from "../testing/problem.ts";
import { appWithLogs } from "./testdata.ts";
import { parseParams, parseQuery, readJson } from "./validate.ts";

const Body = z.object({ name: z.string().min(1), tags: z.array(z.string()).max(2) });

function app() {
  const { app } = appWithLogs({ bodyLimitBytes: 64 });
  app.post("/things/:id", async (c) => {
    const { id } = parseParams(c, z.object({ id: z.string().regex(/^thg_[a-z0-9]{4,}$/) }));
    const body = await readJson(c, Body);
    return c.json({ id, body }, 201);
  });
  app.get("/things", (c) =>
    c.json(parseQuery(c, z.object({ limit: z.coerce.number().int().max(50), tag: z.array(z.string()).optional() }))),
  );
  return app;
}
const post = (
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
  path = "/things/thg_abcd",
) => app().request(path, { method: "POST", body, headers });

describe("readJson, parseParams, parseQuery", () => {
  it("accepts a valid request", async () => {
    const res = await post('{"name":"a","tags":[]}');
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { id: "thg_abcd", body: { name: "a", tags: [] } });
  });

  it("accepts JSON media types with parameters and +json suffixes", async () => {
    assert.equal(
      (await post('{"name":"a","tags":[]}', { "content-type": "application/json; charset=utf-8" })).status,
      201,
    );
    assert.equal(
      (await post('{"name":"a","tags":[]}', { "content-type": "application/merge-patch+json" })).status,
      201,
    );
  });

  it("answers 415 when the body is not declared as JSON", async () => {
    await expectProblem(
      await post('{"name":"a","tags":[]}', { "content-type": "text/plain" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await expectProblem(await post('{"name":"a","tags":[]}', {}), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers 400 MALFORMED_JSON without quoting the body", async () => {
    const problem = await expectProblem(await post('{"name": "secret-ish'), 400, "MALFORMED_JSON");
    assert.doesNotMatch(JSON.stringify(problem), /secret-ish/);
    await expectProblem(await post(""), 400, "MALFORMED_JSON");
  });

  it("answers 400 VALIDATION_FAILED naming each bad field", async () => {
    const problem = await expectProblem(await post('{"name":"","tags":["a","b","c"]}'), 400, "VALIDATION_FAILED");
    assert.deepEqual(problem.errors?.map((e) => e.path).sort(), ["name", "tags"]);
  });

  it("validates path parameters before the body", async () => {
    const problem = await expectProblem(
      await post('{"name":"a","tags":[]}', undefined, "/things/nope"),
      400,
      "VALIDATION_FAILED",
    );
    assert.deepEqual(
      problem.errors?.map((e) => e.path),
      ["id"],
    );
  });

  it("reads single query values as strings and repeated ones as arrays", async () => {
    const res = await app().request("/things?limit=10&tag=a&tag=b");
    assert.deepEqual(await res.json(), { limit: 10, tag: ["a", "b"] });
    const problem = await expectProblem(await app().request("/things?limit=ten"), 400, "VALIDATION_FAILED");
    assert.equal(problem.errors?.[0]?.path, "limit");
  });

  it("answers 413 for a body over the limit, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(100), tags: [] });
    await expectProblem(await post(big), 413, "PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await app().request("/things/thg_abcd", {
      method: "POST",
      body: chunked,
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      duplex: "half",
    } as RequestInit);
    await expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
  });
});
