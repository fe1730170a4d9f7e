import assert from "node:assert/strict";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { routes } from "@flowstate/contracts/rest/routes";
import { BIDI_CONTROL_CHARACTERS as BIDI } from "@flowstate/contracts/testing/bidi-controls";
import { BIDI_MESSAGE, freeTextKeys } from "@flowstate/contracts/text";
import { unparseableRequests } from "@flowstate/shared/testing/malformed-http";
import { rawRequest } from "@flowstate/shared/testing/raw-http";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { z } from "zod";
import { type Account, type Answer, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Malformed bodies, ids, headers and oversized payloads, sent through the gateway to every route of
 * the registry (identity-svc real behind it): every answer must be a 4xx problem+json with a
 * request id, never a 5xx, never a stack trace or source location.
 */
const LIMIT = 16 * 1024;
const RUNS = 10;

function assertClientError(status: number, contentType: string | null | undefined, text: string, what: string): void {
  assert.ok(status >= 400 && status < 500, `${what}: expected a 4xx, got ${status} ${text.slice(0, 300)}`);
  assert.equal(
    contentType,
    "application/problem+json",
    `${what}: ${status} is not problem+json: ${text.slice(0, 200)}`,
  );
  const body = JSON.parse(text) as { status: number; code: string; request_id: string };
  assert.equal(body.status, status, what);
  assert.match(body.code, /^[A-Z][A-Z0-9_]*$/, what);
  assert.ok(body.request_id, what);
  assert.doesNotMatch(
    text,
    /\n\s+at |file:\/\/|\.ts:\d+|node_modules|Error:/,
    `${what}: a stack trace or source location leaked`,
  );
}
const check = (res: Answer, what: string) =>
  assertClientError(res.status, res.headers.get("content-type"), res.text, what);

/**
 * What a route's own refusals look like: problem+json, except the OAuth endpoints, which answer
 * RFC 6749 error objects carrying the problem members, and the authorization pages, which answer
 * an HTML error page (a browser is on the other end).
 */
function checkRoute(route: RouteSpec, res: Answer, what: string): void {
  const noTrace = /\n\s+at |file:\/\/|\.ts:\d+|node_modules|Error:/;
  if (route.media?.response === "html" && res.headers.get("content-type")?.startsWith("text/html")) {
    assert.ok(res.status >= 400 && res.status < 500, `${what}: expected a 4xx, got ${res.status}`);
    assert.doesNotMatch(res.text, noTrace, `${what}: a stack trace or source location leaked`);
    assert.equal(res.headers.get("x-frame-options"), "DENY", what);
    return;
  }
  if (route.errors === "oauth" && res.headers.get("content-type") === "application/json") {
    assert.ok(res.status >= 400 && res.status < 500, `${what}: expected a 4xx, got ${res.status} ${res.text}`);
    const body = JSON.parse(res.text) as { error: string; status: number; code: string; request_id: string };
    assert.match(body.error, /^[a-z_]+$/, what);
    assert.equal(body.status, res.status, what);
    assert.match(body.code, /^OAUTH_[A-Z_]+$/, what);
    assert.ok(body.request_id, what);
    assert.doesNotMatch(res.text, noTrace, `${what}: a stack trace or source location leaked`);
    return;
  }
  check(res, what);
}

describe("malformed input to every route", () => {
  let e2e: E2E;
  let owner: Account;
  let values: Record<string, string>;
  const fill = (route: RouteSpec, overrides: Record<string, string> = {}) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? values[name]!);
  const tokenFor = (route: RouteSpec) => (route.auth === "public" ? undefined : owner.token);

  beforeAll(async () => {
    e2e = await startE2E("gw_malformed", { BODY_LIMIT_BYTES: LIMIT }, undefined, {
      connector: true,
      offers: true,
      privacy: {},
    });
    owner = await e2e.signUp();
    const member = await e2e.signUp();
    const tenant = await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Fuzz" } });
    // The marketplace routes answer 403 FEATURE_DISABLED before validating anything while the flag is off.
    await e2e.call("PUT", `/v1/tenants/${tenant.json.id}/features`, {
      token: owner.token,
      body: { marketplace_offers: true },
    });
    await e2e.addMember(owner, tenant.json.id, member, "member");
    const key = await e2e.call("POST", `/v1/tenants/${tenant.json.id}/api-keys`, {
      token: owner.token,
      body: { name: "fuzz", scope: "read" },
    });
    recordSecret(key.json.secret as string);
    // An open invitation for the owner, from a tenant of the member's: the ids in /v1/users/me/invitations/{invitation_id}.
    const theirs = await e2e.call("POST", "/v1/tenants", { token: member.token, body: { name: "Theirs" } });
    const invitation = await e2e.call("POST", `/v1/tenants/${theirs.json.id}/members`, {
      token: member.token,
      body: { email: owner.email, role: "member" },
    });
    values = {
      id: tenant.json.id,
      sub: member.sub,
      key_id: key.json.key_id,
      invitation_id: invitation.json.invitation_id,
      client_ref: "cli_0000000000notgranted",
      offer_id: "offer-doesnotexist1",
      change_set_id: "doesnotexist0000000000000",
      agreement_id: "agmt-doesnotexist000000000",
    };
  });
  afterAll(() => e2e.close());

  it("refuses an oversized body with 413 on every route, declared up front", async () => {
    for (const route of routes) {
      const res = await e2e.call(route.method === "GET" ? "POST" : route.method, fill(route), {
        token: tokenFor(route),
        raw: "x".repeat(LIMIT + 1),
        headers: { "content-type": "application/json" },
      });
      // GET routes were sent as POST: the size check comes before the method check, or 405 answers first.
      if (route.method === "GET") assert.ok([405, 413].includes(res.status), `${route.id}: ${res.status}`);
      else assert.equal(res.status, 413, `${route.id}: ${res.text}`);
      check(res, route.id);
    }
  });

  it("refuses an oversized chunked body with 413 on every route that takes one", async () => {
    for (const route of routes.filter((r) => r.method !== "GET")) {
      const head = `${route.method} ${fill(route)} HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n${tokenFor(route) ? `authorization: Bearer ${owner.token}\r\n` : ""}\r\n`;
      const chunk = `${(LIMIT + 10).toString(16)}\r\n${"y".repeat(LIMIT + 10)}\r\n0\r\n\r\n`;
      const res = await rawRequest(e2e.gateway.url, head + chunk);
      assert.equal(res.status, 413, `${route.id}: ${res.body}`);
      assertClientError(res.status, res.headers["content-type"], res.body, `${route.id} chunked`);
    }
  });

  it("answers malformed HTTP (bad Content-Length, oversized or invalid header lines, a `*` or backslash target, no Host, a garbage request line) with a 4xx problem on every route", async () => {
    const reached = e2e.reached.length;
    for (const route of routes) {
      const start = `${route.method} ${fill(route)} HTTP/1.1\r\nhost: gw\r\n`;
      const token = tokenFor(route);
      for (const [what, request] of [
        ["non-numeric content-length", `${start}content-length: abc\r\n\r\n`],
        ["two different content-lengths", `${start}content-length: 1\r\ncontent-length: 2\r\n\r\nx`],
        ["a 20 KiB header line", `${start}x-big: ${"a".repeat(20 * 1024)}\r\n\r\n`],
        ["a control character in a header", `${start}x-evil: a\u0001b\r\n\r\n`],
        ...unparseableRequests(route.method, fill(route), token && `Bearer ${token}`),
      ] as const) {
        const res = await rawRequest(e2e.gateway.url, request);
        assertClientError(res.status, res.headers["content-type"], res.body, `${route.id}: ${what}`);
      }
    }
    assert.equal(e2e.reached.length, reached, "no malformed request reached a service");
  });

  it("refuses malformed credentials and request ids on every route that needs a credential", async () => {
    const tokens = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom("Bearer", "Bearer ", "Basic abc", "Bearer a.b.c", `Bearer ${"e".repeat(5000)}`, "Bearer fs_x_y"),
    );
    for (const route of routes.filter((r) => r.auth !== "public")) {
      await fc.assert(
        fc.asyncProperty(tokens, fc.string({ maxLength: 200 }), async (authorization, requestId) => {
          const headers = {
            authorization: authorization.replace(/[\r\n\0]/g, ""),
            "x-request-id": requestId.replace(/[^\x20-\x7e]/g, ""),
          };
          const res = await e2e.call(route.method, fill(route), { headers });
          assert.equal(res.status, 401, `${route.id}: ${res.text}`);
          check(res, route.id);
          assert.notEqual(res.json.request_id, "", route.id);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it("refuses malformed JSON, bodies that break the schema and wrong media types on every route with a body", async () => {
    const bodyRoutes = routes.filter((r) => r.body);
    assert.ok(bodyRoutes.length >= 10);
    for (const route of bodyRoutes) {
      const schema = route.body!;
      const keys = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
      const broken = fc
        .oneof(
          fc.jsonValue(),
          fc.dictionary(fc.constantFrom(...keys, "extra", "__proto__"), fc.jsonValue(), { maxKeys: 4 }),
        )
        .filter((v) => !schema.safeParse(v).success);
      const notJson = fc
        .oneof(fc.string({ maxLength: 200 }), fc.constantFrom("{", "[1,", '{"a":}', "nul", "\u0000", "", "{}}"))
        .filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        });
      const call = (raw: string, contentType = "application/json") =>
        e2e.call(route.method, fill(route), { token: tokenFor(route), raw, headers: { "content-type": contentType } });
      await fc.assert(
        fc.asyncProperty(broken, async (value) => {
          const res = await call(JSON.stringify(value));
          checkRoute(route, res, `${route.id} ${JSON.stringify(value).slice(0, 80)}`);
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(notJson, async (text) =>
          checkRoute(route, await call(text), `${route.id} ${JSON.stringify(text).slice(0, 80)}`),
        ),
        { numRuns: RUNS },
      );
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
      ]) {
        checkRoute(route, await call("{}", type), `${route.id} as ${type}`);
      }
    }
  });

  it("refuses a body that is not UTF-8, and a lone surrogate escape, on every route with a body: nothing is stored altered", async () => {
    const bytes = (...parts: (string | number[])[]) =>
      new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p as string))));
    for (const route of routes.filter((r) => r.body)) {
      const form = route.media?.body === "form";
      const contentType = form ? "application/x-www-form-urlencoded" : "application/json";
      const call = (raw: string | Uint8Array) =>
        e2e.call(route.method, fill(route), { token: tokenFor(route), raw, headers: { "content-type": contentType } });
      const cases: [string, string | Uint8Array][] = form
        ? [
            ["a raw byte that is not UTF-8", bytes("name=", [0xff])],
            ["a percent-escape that is not UTF-8", "name=a%C3%28"],
            ["an escaped lone surrogate", "name=%ED%A0%80"],
          ]
        : [
            ["a truncated sequence", bytes('{"name":"a', [0xe2, 0x82], '"}')],
            ["Latin-1", bytes('{"name":"Andr', [0xe9], '"}')],
            ["an encoded surrogate", bytes('{"name":"', [0xed, 0xa0, 0x80], '"}')],
          ];
      for (const [what, raw] of cases) {
        const res = await call(raw);
        checkRoute(route, res, `${route.id}: ${what}`);
        assert.equal(res.status, 400, `${route.id}: ${what}: ${res.text}`);
        if (res.headers.get("content-type") === "application/problem+json") {
          assert.equal(res.json.code, "MALFORMED_JSON", `${route.id}: ${what}`);
          assert.equal(res.json.errors?.[0]?.code, "invalid_encoding", `${route.id}: ${what}`);
        }
      }
      if (!form) {
        const res = await call('{"name":"\\ud800x"}');
        checkRoute(route, res, `${route.id}: a lone surrogate escape`);
        assert.equal(res.status, 400, `${route.id}: ${res.text}`);
        if (route.errors !== "oauth") {
          assert.equal(res.json.code, "VALIDATION_FAILED", route.id);
          assert.deepEqual(
            res.json.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
            [["name", "invalid_format"]],
            route.id,
          );
        }
      }
    }
  });

  it("refuses bidirectional controls in every free-text field with a field error, and never takes them anywhere", async () => {
    let checked = 0;
    for (const route of routes.filter((r) => r.body && r.media?.body !== "form")) {
      const schema = route.body!;
      const free = freeTextKeys(schema);
      const object = schema instanceof z.ZodObject ? schema : undefined;
      const strings = object ? Object.keys(object.shape) : ["name"];
      for (const c of BIDI) {
        // Every member set to text with the control: free-text fields must name it, the rest refuse anyway.
        const body = Object.fromEntries([...new Set([...strings, ...free])].map((k) => [k, `Acme${c}gpj.exe`]));
        const res = await e2e.call(route.method, fill(route), { token: tokenFor(route), body });
        checkRoute(route, res, `${route.id} U+${c.codePointAt(0)!.toString(16)}`);
        if (route.errors === "oauth") {
          assert.equal(res.status, 400, route.id);
          continue;
        }
        for (const key of free) {
          checked++;
          assert.ok(
            res.json.errors?.some(
              (e: { path: string; message: string }) => e.path === key && e.message === BIDI_MESSAGE,
            ),
            `${route.id}.${key} U+${c.codePointAt(0)!.toString(16)}: ${res.text}`,
          );
        }
      }
    }
    assert.ok(checked >= 12 * 9, `free-text fields checked: ${checked / 12}`);
  });

  it("refuses malformed ids in the path of every route with parameters", async () => {
    const paramRoutes = routes.filter((r) => r.params);
    for (const route of paramRoutes) {
      const params = route.params as z.ZodObject;
      for (const name of Object.keys(params.shape)) {
        const bad = fc
          .oneof(
            fc.string({ minLength: 1, maxLength: 80 }),
            fc.constantFrom(
              "tnt_",
              "usr_x",
              "key_'; DROP TABLE x;--",
              "%00",
              "tnt_%2e%2e",
              "a".repeat(300),
              "tnt_ÄÖÜ0123456789",
            ),
          )
          .filter((s) => !params.safeParse({ ...values, [name]: s }).success);
        await fc.assert(
          fc.asyncProperty(bad, async (value) => {
            const path = fill(route, { [name]: encodeURIComponent(value) });
            const res = await e2e.call(route.method, path, {
              token: tokenFor(route),
              body: route.body ? {} : undefined,
            });
            check(res, `${route.id} ${name}=${JSON.stringify(value)}`);
          }),
          { numRuns: RUNS },
        );
      }
    }
  });
});
