import assert from "node:assert/strict";
import { test } from "vitest";
import { launchStack } from "../deploy/local/stack-process.ts";

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
