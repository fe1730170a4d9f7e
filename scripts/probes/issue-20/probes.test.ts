import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "vitest";
import { launchStack } from "../../../deploy/local/stack-process.ts";

/**
 * Issue 20's acceptance: the attacker's probes (re-derived from the issue, Python standard library
 * only, HTTP from outside: README.md here) pass against `npm start`. The stack is started exactly
 * as `npm start` does; the probes get its URLs and identity-svc's pid (the stalled-upstream probe
 * stops it for 10 s) from the environment.
 */

const here = fileURLToPath(new URL(".", import.meta.url));

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: here, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, out }));
  });
}

test("issue 20's probes pass against npm start", { timeout: 420_000 }, async () => {
  // Every service boots at once; on a loaded machine (a whole suite beside it) that can take more
  // than the default minute per health check.
  const stack = await launchStack({ FLOWSTATE_HEALTH_TIMEOUT_SECONDS: "240" }, 360_000);
  try {
    const url = (name: string) => {
      const service = stack.services[name];
      assert.ok(service?.healthy, `${name} came up:\n${stack.output()}`);
      return service.url;
    };
    const { code, out } = await run("python3", ["run_all.py"], {
      ...process.env,
      FLOWSTATE_EDGE_URL: url("edge-gateway"),
      FLOWSTATE_MCP_URL: url("mcp-gateway"),
      FLOWSTATE_SANDBOX_URL: url("seller-sandbox"),
      FLOWSTATE_IDENTITY_URL: url("identity-svc"),
      FLOWSTATE_IDENTITY_PID: String(stack.services["identity-svc"]!.pid),
      AWS_ENDPOINT_URL: stack.awsEndpoint,
      PROBE_REVOCATION_ROUNDS: "3",
    });
    const lines = out.split("\n").filter((l) => /^(PASS|FAIL|SKIP) /.test(l));
    assert.ok(lines.length >= 20, `every probe printed its line:\n${out}`);
    assert.deepEqual(
      lines.filter((l) => l.startsWith("FAIL ")),
      [],
      out,
    );
    assert.equal(code, 0, out);
  } finally {
    await stack.stop();
  }
});
