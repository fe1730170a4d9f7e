import assert from "node:assert/strict";
import { defineRoute } from "@flowstate/contracts/rest/route";
import { describe, it } from "vitest";
import { z } from "zod";
import { DomainError } from "../errors/domain-error.ts";
import { expectProblem } from "../testing/problem.ts";
import { checkReply, mountRoute } from "./mount-route.ts";
import { appWithLogs } from "./testdata.ts";

const Thing = z.object({ id: z.string(), name: z.string(), tags: z.array(z.string()) });
const create = defineRoute({
  id: "things.create",
  method: "POST",
  path: "/things/{id}",
  service: "identity-svc",
  auth: "public",
  summary: "test route",
  params: z.object({ id: z.string().regex(/^thg_[a-z0-9]{4,}$/) }),
  body: z.object({ name: z.string().min(1), tags: z.array(z.string()).max(2) }),
  responses: { 201: Thing },
});
const list = defineRoute({
  id: "things.list",
  method: "GET",
  path: "/things",
  service: "identity-svc",
  auth: "public",
  summary: "test route",
  query: z.object({ limit: z.coerce.number().int().max(50), tag: z.array(z.string()).optional() }),
  responses: { 200: z.object({ limit: z.number(), tag: z.array(z.string()).optional() }), 204: null },
});

function app(options: { checkResponses?: boolean; reply?: unknown } = {}) {
  const { app, logs } = appWithLogs({ bodyLimitBytes: 64, checkResponses: options.checkResponses ?? true });
  mountRoute(app, create, ({ params, body }) => ({
    status: 201,
    body: (options.reply as z.input<typeof Thing> | undefined) ?? { id: params.id, ...body },
    headers: { location: `/things/${params.id}` },
  }));
  mountRoute(app, list, ({ query }) => (query.limit === 0 ? { status: 204 } : { status: 200, body: query }));
  return Object.assign(app, { logs });
}
const post = (
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
  path = "/things/thg_abcd",
) => app().request(path, { method: "POST", body, headers });

describe("mountRoute: input", () => {
  it("mounts the registry path with Hono's placeholders and passes the validated input", async () => {
    const res = await post('{"name":"a","tags":[]}');
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("location"), "/things/thg_abcd");
    assert.deepEqual(await res.json(), { id: "thg_abcd", name: "a", tags: [] });
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

  it("refuses a body that is not UTF-8 with 400 MALFORMED_JSON rather than storing U+FFFD in its place", async () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
    for (const [what, body] of [
      ["a lone continuation byte", bytes('{"name":"a', [0x80], '","tags":[]}')],
      ["a truncated sequence", bytes('{"name":"a', [0xe2, 0x82], '","tags":[]}')],
      ["an overlong encoding of /", bytes('{"name":"a', [0xc0, 0xaf], '","tags":[]}')],
      ["an encoded surrogate", bytes('{"name":"a', [0xed, 0xa0, 0x80], '","tags":[]}')],
      ["Latin-1", bytes('{"name":"Andr', [0xe9], '","tags":[]}')],
    ] as const) {
      const res = await app().request("/things/thg_abcd", {
        method: "POST",
        body: body,
        headers: { "content-type": "application/json" },
      });
      const problem = await expectProblem(res, 400, "MALFORMED_JSON");
      assert.equal(problem.detail, "the request body is not valid UTF-8", what);
      assert.deepEqual(problem.errors, [
        { path: "", code: "invalid_encoding", message: "the body is not valid UTF-8" },
      ]);
    }
    // Valid multi-byte UTF-8 (and a BOM, which JSON parsers may ignore) is accepted as sent.
    const ok = await app().request("/things/thg_abcd", {
      method: "POST",
      body: bytes([0xef, 0xbb, 0xbf], '{"name":"André 😀","tags":[]}'),
      headers: { "content-type": "application/json" },
    });
    assert.equal(ok.status, 201);
    assert.equal(((await ok.json()) as { name: string }).name, "André 😀");
  });

  it("refuses a lone surrogate escape anywhere in the body with a field error on its path", async () => {
    const problem = await expectProblem(await post('{"name":"a","tags":["ok","\\ud800"]}'), 400, "VALIDATION_FAILED");
    assert.deepEqual(
      problem.errors?.map((e) => [e.path, e.code]),
      [["tags.1", "invalid_format"]],
    );
    // A well-formed pair of escapes is one character, and fine.
    assert.equal((await post('{"name":"\\ud83d\\ude00","tags":[]}')).status, 201);
  });

  it("answers 400 VALIDATION_FAILED naming each bad field", async () => {
    const problem = await expectProblem(await post('{"name":"","tags":["a","b","c"]}'), 400, "VALIDATION_FAILED");
    assert.equal(problem.detail, "the request body is invalid");
    assert.deepEqual(problem.errors?.map((e) => e.path).sort(), ["name", "tags"]);
    assert.deepEqual(
      problem.errors?.map((e) => e.code),
      ["too_small", "too_big"],
    );
  });

  it("validates path parameters before the body", async () => {
    const problem = await expectProblem(await post("not json", undefined, "/things/nope"), 400, "VALIDATION_FAILED");
    assert.equal(problem.detail, "the path is invalid");
    assert.deepEqual(
      problem.errors?.map((e) => e.path),
      ["id"],
    );
  });

  it("reads single query values as strings and repeated ones as arrays", async () => {
    const res = await app().request("/things?limit=10&tag=a&tag=b");
    assert.deepEqual(await res.json(), { limit: 10, tag: ["a", "b"] });
    const problem = await expectProblem(await app().request("/things?limit=ten"), 400, "VALIDATION_FAILED");
    assert.equal(problem.detail, "the query string is invalid");
    assert.equal(problem.errors?.[0]?.path, "limit");
  });

  it("answers an empty body for a status whose schema is null", async () => {
    const res = await app().request("/things?limit=0");
    assert.equal(res.status, 204);
    assert.equal(await res.text(), "");
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

describe("mountRoute: answers", () => {
  const request = (a: ReturnType<typeof app>) =>
    a.request("/things/thg_abcd", {
      method: "POST",
      body: '{"name":"a","tags":[]}',
      headers: { "content-type": "application/json" },
    });

  it("answers 500 and logs why when a checked answer is off its schema", async () => {
    const a = app({ reply: { id: "thg_abcd", name: 7, tags: [] } });
    await expectProblem(await request(a), 500, "INTERNAL_ERROR");
    const line = a.logs.lines.find((l) => l.status === 500) as { err: { message: string } };
    assert.match(line.err.message, /things\.create .* off its contract: name: invalid_type/);
  });

  it("treats a member the schema does not declare as off contract (zod would strip it silently)", async () => {
    const a = app({ reply: { id: "thg_abcd", name: "a", tags: [], password_hash: "x" } });
    await expectProblem(await request(a), 500, "INTERNAL_ERROR");
  });

  it("does not check answers when the app was built without checkResponses (production)", async () => {
    const a = app({ checkResponses: false, reply: { id: "thg_abcd", name: 7, tags: [] } });
    assert.equal((await request(a)).status, 201);
  });

  it("answers 500 when a handler throws a problem code its route does not declare", async () => {
    const { app: a, logs } = appWithLogs({ checkResponses: true });
    mountRoute(a, { ...list, problems: ["LAST_OWNER"] }, ({ query }) => {
      throw query.limit === 1
        ? new DomainError("conflict", "LAST_OWNER", "declared")
        : new DomainError("conflict", "ALREADY_MEMBER", "not declared");
    });
    await expectProblem(await a.request("/things?limit=1"), 409, "LAST_OWNER");
    await expectProblem(await a.request("/things?limit=2"), 500, "INTERNAL_ERROR");
    const line = logs.lines.find((l) => l.status === 500) as { err: { message: string } };
    assert.match(line.err.message, /things\.list answered ALREADY_MEMBER, which its registry entry does not declare/);
  });

  it("refuses an undeclared status, and a body on a status that declares none", () => {
    assert.throws(() => checkReply(create, { status: 200, body: {} }), /status 200 is not declared/);
    assert.throws(() => checkReply(list, { status: 204, body: {} }), /status 204 declares no body/);
    checkReply(list, { status: 204 });
  });

  it("types the handler's input and answer from the spec", () => {
    const { app: typed } = appWithLogs();
    mountRoute(typed, create, ({ params, body }) => {
      const id: string = params.id;
      // @ts-expect-error the route has no query schema
      void params.limit;
      return { status: 201, body: { id, name: body.name, tags: body.tags } };
    });
    // @ts-expect-error 200 is not an answer this route declares
    mountRoute(typed, create, () => ({ status: 200, body: { id: "x", name: "a", tags: [] } }));
    // @ts-expect-error `name` must be a string
    mountRoute(typed, create, () => ({ status: 201, body: { id: "x", name: 1, tags: [] } }));
  });
});
