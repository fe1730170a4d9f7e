import assert from "node:assert/strict";
import { test } from "vitest";
import { freePort } from "../deploy/local/ports.ts";
import { canConnect } from "../deploy/local/postgres.ts";
import { launchStack } from "../deploy/local/stack-process.ts";

test("with no DATABASE_URL and no server on the local port, npm start runs on an embedded PostgreSQL and stops it", {
  timeout: 300_000, // initdb takes seconds on a first run, then every service boots (see start.test.ts)
}, async () => {
  // A port nothing listens on stands for a machine whose PostgreSQL is stopped (or absent).
  const closed = await freePort();
  const stack = await launchStack({ DATABASE_URL: "", FLOWSTATE_LOCAL_PG_PORT: String(closed) });
  let embeddedPort: number | undefined;
  try {
    const line =
      /PostgreSQL: postgres:\/\/postgres@127\.0\.0\.1:(\d+)\/flowstate \(embedded, data in .*\.local\/postgres\)/.exec(
        stack.output(),
      );
    assert.ok(line, `the summary says the embedded server is used:\n${stack.output()}`);
    embeddedPort = Number(line[1]);
    assert.notEqual(embeddedPort, closed);
    for (const [name, service] of Object.entries(stack.services))
      assert.ok(service.healthy, `${name} came up:\n${stack.output()}`);
    // A write that reaches identity-svc's schema on that server, through the gateway.
    const gateway = stack.services["edge-gateway"]!.url;
    const res = await fetch(`${gateway}/v1/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: `embedded-${Date.now()}@example.test`,
        password: "a long enough passphrase",
        name: "E",
      }),
    });
    assert.equal(res.status, 201, await res.text());
  } finally {
    assert.equal(await stack.stop(), 0);
  }
  assert.equal(await canConnect("127.0.0.1", embeddedPort!), false, "the embedded server stopped with the stack");
});
