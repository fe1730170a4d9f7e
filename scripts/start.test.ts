import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { serviceRoles } from "@flowstate/shared/db/service-roles";
import { test } from "vitest";
import { launchStack } from "../deploy/local/stack-process.ts";

/** The rows of a one-column query, as the administrator (psql, as deploy/local/postgres.ts uses it). */
const sql = async (url: string, query: string): Promise<string[]> =>
  execFileSync("psql", [url, "-Atc", query], { encoding: "utf8" }).split("\n").filter(Boolean);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("npm start brings up every service healthy, prints where it listens, and stops everything on SIGTERM", {
  timeout: 300_000, // the stack starts in ~40 s on an idle 2-core machine; nine services booting under load took over 60 s each
}, async () => {
  const stack = await launchStack();
  try {
    assert.match(stack.output(), /AWS endpoint\s+http:\/\/127\.0\.0\.1:\d+/);
    const gateway = stack.services["edge-gateway"];
    if (gateway) assert.ok(stack.output().includes(`${gateway.url}/docs`), "the summary points at the API docs");
    const sandbox = stack.services["seller-sandbox"];
    if (sandbox) {
      // The control plane answers this host (loopback) without a token, and the summary says where it is.
      assert.ok(stack.output().includes(`${sandbox.url}/_sandbox/`), "the summary names the sandbox control plane");
      assert.equal((await fetch(`${sandbox.url}/_sandbox/healthz`)).status, 200, "sandbox control plane from loopback");
    }
    const moto = await fetch(`${stack.awsEndpoint}/moto-api/`);
    assert.equal(moto.status, 200);
    // Issue 20: each service with a database is logged in as its own role (never the administrator)
    // and its schema belongs to that role; audit-svc as its insert-only one.
    const database = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_test";
    const roles = serviceRoles(process.env.SERVICE_PREFIX ?? "flowstate", process.env.STAGE ?? "dev");
    const owners = await sql(
      database,
      `SELECT nspname || ':' || nspowner::regrole FROM pg_namespace WHERE nspname IN (${roles.map((r) => `'${r.schema}'`).join(",")})`,
    );
    assert.deepEqual(owners.sort(), roles.map((r) => `${r.schema}:${r.role}`).sort());
    const expected = [...roles.map((r) => r.role), "flowstate_dev_audit_svc"];
    // Seen at any poll, not all at once: a service without a standing connection (no outbox relay,
    // e.g. web-console) holds one only while it works, and pg closes idle ones after 10 s. So each
    // poll asks every service's /readyz, which checks its database: on a slow boot the connection
    // web-console opened to start was closed before the first poll (the test failed that way).
    const seen = new Set<string>();
    await waitFor(
      async () => {
        await Promise.all(Object.values(stack.services).map((s) => fetch(`${s.url}/readyz`).then((r) => r.text())));
        const users = await sql(
          database,
          "SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = current_database() AND usename IS NOT NULL",
        );
        for (const u of users) seen.add(u);
        return expected.every((role) => seen.has(role)) || undefined;
      },
      30_000,
      () => `connections as ${expected.filter((role) => !seen.has(role)).join(", ")} (seen: ${[...seen].join(", ")})`,
      250,
    );
    for (const [name, service] of Object.entries(stack.services)) {
      assert.ok(service.healthy, `${name} came up:\n${stack.output()}`);
      assert.ok(stack.output().includes(service.url), `the summary names ${name}'s URL`);
      const res = await fetch(`${service.url}/healthz`);
      assert.equal(res.status, 200, `${name} /healthz`);
      if (name.endsWith("-gateway")) {
        // A public port: /metrics is served apart, on loopback (issue 7), and the summary says where.
        assert.equal((await fetch(`${service.url}/metrics`)).status, 404, `${name} public /metrics`);
        assert.ok(service.metricsUrl && stack.output().includes(service.metricsUrl), `${name} metrics URL printed`);
        const scrape = await fetch(service.metricsUrl);
        assert.equal(scrape.status, 200, `${name} internal /metrics`);
        assert.match(await scrape.text(), /upstream_circuit_open\{upstream="identity-svc"\} 0/, name);
      }
    }
  } finally {
    assert.equal(await stack.stop(), 0);
  }
  for (const [name, service] of Object.entries(stack.services))
    assert.equal(alive(service.pid), false, `${name} has exited`);
  await assert.rejects(fetch(`${stack.awsEndpoint}/moto-api/`), "moto_server has stopped");
});
