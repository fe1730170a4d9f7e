import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { acceptableHeaderValue, validTraceparent, validTracestate } from "@flowstate/shared/http/inbound-headers";
import { unparseableRequests } from "@flowstate/shared/testing/malformed-http";
import { rawRequest } from "@flowstate/shared/testing/raw-http";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Account, type E2E, startE2E } from "./e2e-stack.ts";

/**
 * Every inbound header the gateway forwards, fuzzed on an event-emitting route of each kind
 * (public: sign-up, user: tenant creation, tenant: rename). Whatever the value, the answer is the
 * route's usual success (never a 500: a malformed traceparent used to reach the event envelope and
 * make the outbox throw), what identity-svc receives is either nothing or a valid value, and the
 * event written carries the traceparent only when it was valid.
 *
 * The headers: what services read (traceparent, tracestate, origin, sec-fetch-site, accept,
 * user-agent, x-request-id: replaced by the gateway's own) and one no service knows; each is sent
 * as raw bytes, so obs-text and control characters reach the gateway's parser too.
 */
const HEADERS = [
  "traceparent",
  "tracestate",
  "origin",
  "sec-fetch-site",
  "accept",
  "user-agent",
  "x-request-id",
  "x-custom-header",
] as const;
const RUNS = { public: 4, user: 8, tenant: 8 } as const;

const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
const VALID_TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
/** Raw header bytes: anything but CR and LF (which would end the header line). */
const value = fc
  .oneof(
    fc.string({ maxLength: 120 }).map((s) => Buffer.from(s, "utf8")),
    fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b)),
    fc.tuple(hex(32), hex(16), hex(2)).map(([t, p, f]) => Buffer.from(`00-${t}-${p}-${f}`)),
    fc
      .constantFrom(
        VALID_TRACEPARENT,
        VALID_TRACEPARENT.toUpperCase(),
        `${VALID_TRACEPARENT}-extra`,
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7",
        "a=b,=c",
        "x".repeat(5000),
      )
      .map((s) => Buffer.from(s)),
  )
  .map((b) => Buffer.from(b.filter((byte) => byte !== 0x0d && byte !== 0x0a)));

let e2e: E2E;
let owner: Account;
let tenantId: string;
beforeAll(async () => {
  e2e = await startE2E("gw_headers");
  owner = await e2e.signUp();
  tenantId = (await e2e.call("POST", "/v1/tenants", { token: owner.token, body: { name: "Headers" } })).json.id;
});
afterAll(() => e2e.close());

type Kind = keyof typeof RUNS;
function callFor(kind: Kind): { method: string; path: string; token?: string; body: unknown; status: number } {
  if (kind === "public") {
    const password = recordSecret(`pw-${randomUUID()}`);
    return {
      method: "POST",
      path: "/v1/auth/signup",
      body: { email: `h-${randomUUID()}@example.test`, password, name: "H" },
      status: 201,
    };
  }
  if (kind === "user")
    return { method: "POST", path: "/v1/tenants", token: owner.token, body: { name: "Fuzz" }, status: 201 };
  return {
    method: "PATCH",
    path: `/v1/tenants/${tenantId}`,
    token: owner.token,
    body: { name: `Renamed ${randomUUID()}` },
    status: 200,
  };
}

function send(kind: Kind, name: string, raw: Buffer, extra: Buffer[] = [], more: string[] = []) {
  const c = callFor(kind);
  const body = JSON.stringify(c.body);
  const lines = [
    `${c.method} ${c.path} HTTP/1.1`,
    "host: gateway",
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    ...(c.token ? [`authorization: Bearer ${c.token}`] : []),
    ...more,
    "connection: close",
  ];
  const head = Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1");
  const fuzzed = [raw, ...extra].map((v) => Buffer.concat([Buffer.from(`${name}: `), v, Buffer.from("\r\n")]));
  return {
    expected: c.status,
    answer: rawRequest(e2e.gateway.url, Buffer.concat([head, ...fuzzed, Buffer.from(`\r\n${body}`)])),
  };
}

/** The trace of the event the call emitted, read from identity-svc's outbox by the call's request id. */
async function eventTrace(requestId: string): Promise<string | null | undefined> {
  const { deps } = e2e.identity;
  const rows = await deps.orm.em
    .fork()
    .execute<{ trace: string | null }[]>(
      `SELECT envelope->>'trace' AS trace FROM "${deps.schema}".outbox_event WHERE envelope->>'request_id' = ? LIMIT 1`,
      [requestId],
    );
  return rows[0]?.trace;
}

describe("inbound headers at the gateway", () => {
  for (const kind of ["public", "user", "tenant"] as const) {
    for (const name of HEADERS) {
      it(`${name} on a ${kind} route: never a 5xx, never an invalid value past the gateway or into an event`, async () => {
        await fc.assert(
          fc.asyncProperty(value, fc.boolean(), async (raw, twice) => {
            // A tracestate is only ever kept beside a valid traceparent, so it is fuzzed beside one.
            const more = name === "tracestate" ? [`traceparent: ${VALID_TRACEPARENT}`] : [];
            const { expected, answer } = send(kind, name, raw, twice ? [raw] : [], more);
            const res = await answer;
            // Optional whitespace around a value is not part of it (RFC 9110 section 5.5).
            const text = raw.toString("latin1").replace(/^[ \t]+|[ \t]+$/g, "");
            // Node's parser refuses control characters in a value: a problem+json 400 at the edge.
            const refusedByParser = [...text].some((ch) => {
              const code = ch.charCodeAt(0);
              return (code < 0x20 && code !== 0x09) || code === 0x7f;
            });
            if (refusedByParser) {
              assert.equal(res.status, 400, `${name}=${JSON.stringify(text)}: ${res.body}`);
              return;
            }
            assert.equal(res.status, expected, `${name}=${JSON.stringify(text)}: ${res.body}`);
            const requestId = res.headers["x-request-id"]!;
            const received = e2e.relayedHeaders.get(requestId);
            assert.ok(received, "the call reached identity-svc");
            const passed = received.get(name);
            if (name === "traceparent") {
              const sent = twice ? undefined : validTraceparent(text);
              assert.equal(passed ?? undefined, sent, `${name}=${JSON.stringify(text)}`);
              assert.equal((await eventTrace(requestId)) ?? undefined, sent, "the event's trace");
            } else if (name === "tracestate") {
              assert.equal(passed ?? undefined, validTracestate(twice ? [text, text] : [text]), JSON.stringify(text));
            } else if (name === "x-request-id") {
              assert.equal(passed, requestId, "the gateway's own id");
            } else if (passed !== null) {
              for (const v of passed.split(", "))
                assert.ok(acceptableHeaderValue(v), `${name}=${JSON.stringify(passed)}`);
            }
          }),
          { numRuns: RUNS[kind] },
        );
      });
    }
  }

  it("answers requests whose target or Host no Request can be built from with 400 problem+json, reaching no service", async () => {
    for (const kind of Object.keys(RUNS) as Kind[]) {
      const c = callFor(kind);
      const before = e2e.reached.length;
      for (const [what, bytes] of unparseableRequests(c.method, c.path, c.token && `Bearer ${c.token}`)) {
        const res = await rawRequest(e2e.gateway.url, bytes);
        assert.equal(res.status, 400, `${kind} ${what}: ${res.body}`);
        assert.equal(res.headers["content-type"], "application/problem+json", `${kind} ${what}`);
        const body = JSON.parse(res.body) as { code: string; request_id: string };
        assert.equal(body.code, "BAD_REQUEST", `${kind} ${what}`);
        assert.equal(res.headers["x-request-id"], body.request_id, `${kind} ${what}`);
      }
      assert.equal(e2e.reached.length, before, `${kind}: nothing was relayed`);
    }
  });

  it("forwards a valid tracestate with its valid traceparent", async () => {
    const c = callFor("user");
    const res = await e2e.call(c.method, c.path, {
      token: c.token,
      body: c.body,
      headers: { traceparent: VALID_TRACEPARENT, tracestate: "congo=t61rcWkgMzE" },
    });
    assert.equal(res.status, 201, res.text);
    const received = e2e.relayedHeaders.get(res.headers.get("x-request-id")!)!;
    assert.equal(received.get("traceparent"), VALID_TRACEPARENT);
    assert.equal(received.get("tracestate"), validTracestate(["congo=t61rcWkgMzE"]));
    assert.equal(await eventTrace(res.headers.get("x-request-id")!), VALID_TRACEPARENT);
  });
});
