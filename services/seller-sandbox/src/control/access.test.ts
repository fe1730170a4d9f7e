import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { networkInterfaces } from "node:os";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../testing/start-sandbox.ts";
import { isLoopback } from "./access.ts";

/** An address of this host that is not loopback: connecting to it makes the sandbox see a non-loopback peer. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

const ACCOUNT = "444455556666";
const faults = { faults: [{ kind: "throttle", count: 1 }] };

async function call(base: string, method: string, path: string, init: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}/_sandbox${path}`, {
    method,
    headers: init.token ? { authorization: `Bearer ${init.token}` } : {},
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
}

describe("isLoopback", () => {
  it("accepts 127.0.0.0/8, ::1 and IPv4-mapped loopback, nothing else", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) assert.equal(isLoopback(a), true, a);
    for (const a of ["10.0.0.1", "172.17.0.1", "::ffff:10.0.0.1", "fe80::1", "0.0.0.0", "::", "", undefined])
      assert.equal(isLoopback(a), false, String(a));
  });
});

// A host without any non-loopback interface cannot play the other container; say so rather than pass silently.
describe.skipIf(!external)("the control plane off loopback (a peer on the compose network)", () => {
  const token = recordSecret(randomBytes(24).toString("base64url"));
  let withToken: RunningSandbox;
  let withoutToken: RunningSandbox;
  const loopback = (s: RunningSandbox) => `http://127.0.0.1:${s.port}`;
  const remote = (s: RunningSandbox) => `http://${external}:${s.port}`;

  beforeAll(async () => {
    [withToken, withoutToken] = await Promise.all([
      startSandbox({ SANDBOX_CONTROL_TOKEN: token }, { host: "0.0.0.0" }),
      startSandbox({}, { host: "0.0.0.0" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withToken?.stop(), withoutToken?.stop()]);
  });

  it("refuses a caller without the token (401) or with a wrong one, and changes nothing", async () => {
    const s = withToken;
    assert.equal((await call(remote(s), "GET", `/accounts/${ACCOUNT}`)).status, 401);
    assert.equal((await call(remote(s), "PUT", `/accounts/${ACCOUNT}/faults`, { body: faults })).status, 401);
    const wrong = await call(remote(s), "PUT", `/accounts/${ACCOUNT}/faults`, { token: `${token}x`, body: faults });
    assert.equal(wrong.status, 401);
    assert.equal((await call(remote(s), "POST", "/iam/flush", { body: {} })).status, 401);
    const view = await call(loopback(s), "GET", `/accounts/${ACCOUNT}`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.json?.faults, []);
  });

  it("accepts the caller that presents the token", async () => {
    const s = withToken;
    const put = await call(remote(s), "PUT", `/accounts/${ACCOUNT}/faults`, { token, body: faults });
    assert.equal(put.status, 200);
    const view = await call(remote(s), "GET", `/accounts/${ACCOUNT}`, { token });
    assert.equal(view.status, 200);
    assert.equal((view.json?.faults as unknown[] | undefined)?.length, 1);
    assert.equal((await call(remote(s), "DELETE", `/accounts/${ACCOUNT}/faults`, { token })).status, 204);
  });

  it("refuses every caller off loopback when no token is configured, whatever it presents", async () => {
    const s = withoutToken;
    for (const t of [undefined, token]) {
      const res = await call(remote(s), "PUT", `/accounts/${ACCOUNT}/faults`, { token: t, body: faults });
      assert.equal(res.status, 403);
    }
    const view = await call(loopback(s), "GET", `/accounts/${ACCOUNT}`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.json?.faults, []);
  });

  it("still answers loopback callers without a token, and leaves the AWS-facing side alone", async () => {
    assert.equal(
      (await call(loopback(withToken), "PUT", `/accounts/${ACCOUNT}/clock`, { body: { advanceSeconds: 1 } })).status,
      200,
    );
    assert.equal((await call(loopback(withoutToken), "POST", "/iam/flush", { body: {} })).status, 204);
    // Liveness off the control plane is public; the SDK operations authenticate by SigV4.
    assert.equal((await fetch(`${remote(withoutToken)}/healthz`)).status, 200);
  });
});
