import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { bootstrap } from "../../../deploy/local/bootstrap.ts";
import { stackEnvironment } from "../../../deploy/local/environment.ts";
import { freePort } from "../../../deploy/local/ports.ts";
import { GatewayConfig } from "../src/config.ts";

/**
 * Issue 7, "A stall test": identity-svc and the gateway as real processes (their main.ts, as npm
 * start runs them, the gateway with its default timeouts), identity-svc frozen with SIGSTOP for
 * 10 s. Requests that need a lookup get 503 UPSTREAM_UNAVAILABLE with Retry-After within the
 * lookup timeout; once the breaker has opened, every request to identity-svc (a cached credential
 * relayed to it, a sign-in) gets it at once, and /readyz says not ready; after SIGCONT the gateway
 * recovers by itself (its own probe, no restart, no request needed). The figures are printed.
 */
const defaults = GatewayConfig.parse({ IDENTITY_URL: "http://127.0.0.1:1" });
const LOOKUP_MS = defaults.LOOKUP_TIMEOUT_MS;
const STALL_MS = 10_000;
/** Scheduling slack on a loaded 2-core machine; the assertions are on the gateway's own deadlines. */
const SLACK_MS = 1_500;

const root = join(import.meta.dirname, "..", "..", "..");
const prefix = `st${randomBytes(3).toString("hex")}`;
const children: ChildProcess[] = [];
let db: TestDatabase;
let identity: ChildProcess;
let gatewayUrl: string;
let metricsUrl: string;

function start(service: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(nodeBinary, [join(root, "services", service, "src", "main.ts")], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

interface Timed {
  status: number;
  ms: number;
  retryAfter: string | null;
  contentType: string | null;
  nosniff: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  body: any;
}

async function timed(method: string, path: string, token?: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    ms: performance.now() - started,
    retryAfter: res.headers.get("retry-after"),
    contentType: res.headers.get("content-type"),
    nosniff: res.headers.get("x-content-type-options"),
    body: text ? JSON.parse(text) : undefined,
  };
}

async function ok(method: string, path: string, token?: string, body?: unknown) {
  const answer = await timed(method, path, token, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

function assertUnavailable(answer: Timed, what: string) {
  assert.equal(answer.status, 503, `${what}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.contentType, "application/problem+json", what);
  assert.equal(answer.body.code, "UPSTREAM_UNAVAILABLE", what);
  assert.ok(Number(answer.retryAfter) >= 1, `${what}: Retry-After ${answer.retryAfter}`);
  assert.equal(answer.nosniff, "nosniff", what);
}

beforeAll(async () => {
  const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
  const { outputs } = await bootstrap({ aws, prefix, stage: "dev", mailFrom: `no-reply@${prefix}.local` });
  db = await openTestDatabase({ prefix: "gw_stall" });
  const [identityPort, gatewayPort] = [await freePort(), await freePort()];
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const env = {
    ...stackEnvironment(outputs, prefix, "dev"),
    SERVICE_PREFIX: prefix,
    STAGE: "dev",
    LOG_LEVEL: "info",
    IDENTITY_URL: identityUrl,
  };
  identity = start("identity-svc", {
    ...env,
    PORT: String(identityPort),
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_SCHEMA: db.schema,
  });
  await waitFor(
    () =>
      fetch(`${identityUrl}/readyz`).then(
        (r) => r.ok || undefined,
        () => undefined,
      ),
    90_000,
    "identity-svc ready",
    200,
  );
  metricsUrl = `http://127.0.0.1:${await freePort()}/metrics`;
  start("edge-gateway", { ...env, PORT: String(gatewayPort), METRICS_PORT: new URL(metricsUrl).port });
  await waitFor(
    () =>
      fetch(`${gatewayUrl}/readyz`).then(
        (r) => r.ok || undefined,
        () => undefined,
      ),
    90_000,
    "gateway ready",
    200,
  );
});

afterAll(async () => {
  for (const c of children) {
    c.kill("SIGCONT");
    c.kill("SIGKILL");
  }
  await db?.close();
});

describe("identity-svc stalled (SIGSTOP) for 10 s", () => {
  it("the gateway answers 503 with Retry-After within its lookup timeout, at once while the breaker is open, and recovers by itself after SIGCONT", async () => {
    const email = `stall-${randomUUID()}@example.test`;
    const password = recordSecret(`pw-${randomUUID()}`);
    await ok("POST", "/v1/auth/signup", undefined, { email, password, name: "Stall" });
    const token = recordSecret((await ok("POST", "/v1/auth/signin", undefined, { email, password })).access_token);
    const tenant = (await ok("POST", "/v1/tenants", token, { name: "Stall" })).id as string;
    const path = `/v1/tenants/${tenant}`;
    // API keys the gateway has never seen: each request with one needs a lookup of identity-svc.
    const keys: string[] = [];
    for (let i = 0; i < defaults.BREAKER_FAILURES + 1; i++)
      keys.push(recordSecret((await ok("POST", `${path}/api-keys`, token, { name: `k${i}`, scope: "read" })).secret));
    await ok("GET", path, token); // the token's session and membership are now cached

    identity.kill("SIGSTOP");
    const stoppedAt = performance.now();
    try {
      // 1. Lookups wait LOOKUP_TIMEOUT_MS, not the stall: 503 with Retry-After. Enough of them open the breaker.
      const first = await Promise.all(keys.map((key) => timed("GET", path, key)));
      for (const [i, answer] of first.entries()) {
        assertUnavailable(answer, `unseen key ${i}`);
        assert.ok(answer.ms >= LOOKUP_MS - 100, `key ${i}: answered after ${answer.ms} ms, before the timeout?`);
        assert.ok(answer.ms <= LOOKUP_MS + SLACK_MS, `key ${i}: answered after ${Math.round(answer.ms)} ms`);
      }
      const timeTo503 = Math.max(...first.map((a) => a.ms));

      // 2. The breaker is open: a cached credential relayed to identity-svc, a sign-in and /readyz answer at once.
      const atOnce: number[] = [];
      const relayed = await timed("GET", path, token);
      assertUnavailable(relayed, "cached token, relayed to identity-svc");
      const signIn = await timed("POST", "/v1/auth/signin", undefined, { email, password });
      assertUnavailable(signIn, "sign-in");
      atOnce.push(relayed.ms, signIn.ms);
      const readyStarted = performance.now();
      const ready = await fetch(`${gatewayUrl}/readyz`);
      atOnce.push(performance.now() - readyStarted);
      assert.equal(ready.status, 503);
      assert.equal(((await ready.json()) as { checks: Record<string, string> }).checks["identity-svc"], "failed");
      const scrape = await (await fetch(metricsUrl)).text();
      assert.match(scrape, /upstream_circuit_open\{upstream="identity-svc"\} 1/);
      assert.match(scrape, /upstream_circuit_opened_total\{upstream="identity-svc"\} [1-9]/);

      // 3. For the rest of the stall no request is held: each is refused at once.
      while (performance.now() - stoppedAt < STALL_MS) {
        const answer = await timed("GET", path, token);
        assertUnavailable(answer, "during the stall");
        atOnce.push(answer.ms);
        await sleep(250);
      }
      const slowestOpen = Math.max(...atOnce);
      // Half the 2 s lookup timeout: an answer that waited for identity-svc at all would take longer.
      // (500 ms was missed at 570 ms on a machine at load 30 by scheduling alone.)
      assert.ok(slowestOpen < 1_000, `while open, the slowest refusal took ${Math.round(slowestOpen)} ms`);

      identity.kill("SIGCONT");
      const resumedAt = performance.now();
      // 4. Recovery by itself: poll until the cached token's request is relayed again.
      let recovered: number | undefined;
      while (recovered === undefined && performance.now() - resumedAt < 30_000) {
        const answer = await timed("GET", path, token);
        if (answer.status === 200) recovered = performance.now() - resumedAt;
        else {
          assertUnavailable(answer, "before recovery");
          await sleep(50);
        }
      }
      assert.ok(recovered !== undefined, "the gateway did not recover within 30 s");
      const probeMs = defaults.BREAKER_PROBE_MS;
      assert.ok(recovered <= probeMs + LOOKUP_MS + SLACK_MS, `recovered ${Math.round(recovered)} ms after SIGCONT`);
      assert.equal((await fetch(`${gatewayUrl}/readyz`)).status, 200, "ready again");
      // Lookups work again: an unseen key is looked up and accepted.
      assert.equal((await timed("GET", path, keys[0])).status, 200);
      console.log(
        `stall figures: time-to-503 ${Math.round(timeTo503)} ms (lookup timeout ${LOOKUP_MS} ms); ` +
          `while open, refusals in ${Math.round(Math.min(...atOnce))}-${Math.round(slowestOpen)} ms over ${atOnce.length} requests; ` +
          `recovered ${Math.round(recovered)} ms after SIGCONT (probe every ${probeMs} ms)`,
      );
    } finally {
      identity.kill("SIGCONT");
    }
  });

  // Issue 20, finding 6: calls of a cached caller relayed into a stall shorter than the relay
  // timeout waited there, and once identity-svc resumed their assertions (signed when relayed) were
  // past the 5 s window: 401 UNAUTHENTICATED, which sends a client to sign in again. A held call is
  // a slow upstream: 503 with Retry-After, and nothing is done (the write below never lands).
  it("answers a cached caller's calls relayed into a 7 s stall 503 with Retry-After once it resumes, never 401, and does nothing", async () => {
    const email = `held-${randomUUID()}@example.test`;
    const password = recordSecret(`pw-${randomUUID()}`);
    await ok("POST", "/v1/auth/signup", undefined, { email, password, name: "Held" });
    const token = recordSecret((await ok("POST", "/v1/auth/signin", undefined, { email, password })).access_token);
    const path = `/v1/tenants/${(await ok("POST", "/v1/tenants", token, { name: "Before" })).id}`;
    const HELD_MS = 7_000; // past the assertion's window, under the relay timeout
    assert.ok(HELD_MS < defaults.UPSTREAM_TIMEOUT_MS - SLACK_MS);

    // Whatever path a call takes it is a 503 with Retry-After and changes nothing. The held path
    // (relayed into the stall, refused when it resumes) needs the gateway to trust its cached
    // session at that moment, that is to hold its door lease (ADR 0011): a stall longer than the
    // 4 s lease (the test above, or a try here) lapses it, and until a renewal succeeds the
    // gateway looks every credential up (its own 503 after the 2 s lookup timeout). So each try
    // first waits for two renewal periods after identity-svc answers again, and up to three tries
    // are made for a read that was held; one must be.
    let held = false;
    for (let attempt = 0; attempt < 3 && !held; attempt++) {
      await sleep(2_500); // the lease renewed (every 1 s) since identity-svc resumed
      await ok("GET", path, token); // the token's session and membership are cached again
      identity.kill("SIGSTOP");
      try {
        const answers = Promise.all([timed("GET", path, token), timed("PATCH", path, token, { name: "During" })]);
        await sleep(HELD_MS);
        identity.kill("SIGCONT");
        const [read, write] = await answers;
        assertUnavailable(read, "a held read");
        assertUnavailable(write, "a held write");
        held = read.ms >= HELD_MS - 100;
      } finally {
        identity.kill("SIGCONT");
      }
      await waitFor(
        async () => (await timed("GET", path, token)).status === 200 || undefined,
        30_000,
        "recovered",
        100,
      );
    }
    assert.ok(held, "no read was relayed into the stall and held until the resume in three tries");
    assert.equal((await ok("GET", path, token)).name, "Before", "the held write was applied");
  });
});
