/**
 * `npm start`: the whole system on the embedded local stack (PostgreSQL, moto_server, every
 * service under services/ that has a src/main.ts), then a summary of where everything listens.
 * Ctrl-C or SIGTERM stops every child and moto. See deploy/local/stack.ts for the steps.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { mcpClientSetupLines } from "../deploy/local/mcp-client-config.ts";
import { type RunningStack, redactUrl, startStack } from "../deploy/local/stack.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
let stopping = false;
const print = (line: string) => process.stdout.write(`${line}\n`);

let stack: RunningStack | undefined;
const startup = new AbortController();
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    // A second Ctrl-C: do not wait for graceful shutdown any longer.
    for (const s of stack?.services ?? []) s.child.process.kill("SIGKILL");
    process.exit(130);
  }
  stopping = true;
  process.stdout.write(`\n${signal}: stopping every service and the local emulator…\n`);
  // Still starting: startStack stops what it has started and rejects; the catch below exits.
  if (!stack) return startup.abort();
  await stack.stop();
  process.stdout.write("Flowstate stopped.\n");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  stack = await startStack({ root, env: process.env, print, signal: startup.signal });
} catch (err) {
  if (startup.signal.aborted) {
    process.stdout.write("Flowstate stopped.\n");
    process.exit(0);
  }
  process.stderr.write(`npm start failed: ${(err as Error).message}\n`);
  process.exit(1);
}

for (const s of stack.services) {
  void s.child.exited.then((code) => {
    if (!stopping && s.healthy)
      print(`!! ${s.name} exited (${code}); the others keep running. Restart with npm start.`);
  });
}

const gateway = stack.services.find((s) => s.name === "edge-gateway" && s.healthy);
const mcp = stack.services.find((s) => s.name === "mcp-gateway" && s.healthy);
// The sandbox's control plane takes the caller's SANDBOX_CONTROL_TOKEN from this environment (children inherit it).
const sandbox = stack.services.find((s) => s.name === "seller-sandbox" && s.healthy);
// What MCP clients need (deploy/local/mcp-client-config.ts, tested): the URL with "type": "http";
// they sign in by OAuth themselves, or send a tenant API key (POST /v1/tenants/{id}/api-keys).
const mcpConfig = mcp && mcpClientSetupLines(mcp.url);
const width = Math.max(14, ...stack.services.map((s) => s.name.length)) + 2;
const lines = [
  "",
  "Flowstate is up.",
  ...(gateway ? [`  API (edge-gateway)  ${gateway.url}`, `  API docs            ${gateway.url}/docs`] : []),
  // The seller console is served by the gateway at /app (ADR 0015), once web-console is up.
  ...(gateway && stack.services.some((s) => s.name === "web-console" && s.healthy)
    ? [`  Console             ${gateway.url}/app`]
    : []),
  ...(mcpConfig ?? []),
  "",
  "  services:",
  ...stack.services.map((s) => `    ${s.name.padEnd(width)}${s.url}  ${s.healthy ? "healthy" : "FAILED"}`),
  ...(sandbox
    ? [
        "",
        `  sandbox control     ${sandbox.url}/_sandbox/  (from this host; from others with Bearer $SANDBOX_CONTROL_TOKEN, ${process.env.SANDBOX_CONTROL_TOKEN ? "set" : "not set"})`,
      ]
    : []),
  "",
  // The gateways' ports are public, so their /metrics is not there (404) but on loopback apart.
  ...stack.services
    .filter((s) => s.metricsUrl && s.healthy)
    .map((s) => `  metrics             ${s.metricsUrl}  (${s.name}, internal)`),
  `  AWS endpoint        ${stack.awsEndpoint ?? "real AWS (eu-central-1)"}${stack.ownMoto ? "  (moto_server, started for this run)" : ""}`,
  `  PostgreSQL          ${redactUrl(stack.databaseUrl)}`,
  `  event bus           ${stack.outputs.busName}`,
  ...stack.services.filter((s) => !s.healthy).map((s) => `\n  ${s.name} failed to start: ${s.error}`),
  "",
  stack.services.length
    ? "Press Ctrl-C to stop."
    : "No service has a src/main.ts yet; only the local AWS stack runs. Press Ctrl-C to stop.",
  "",
];
// Machine-readable copy for end-to-end tests (deploy/local/stack-process.ts).
if (process.env.FLOWSTATE_STACK_FILE) {
  const services = Object.fromEntries(
    stack.services.map((s) => [
      s.name,
      { url: s.url, healthy: s.healthy, pid: s.child.process.pid, ...(s.metricsUrl && { metricsUrl: s.metricsUrl }) },
    ]),
  );
  writeFileSync(process.env.FLOWSTATE_STACK_FILE, JSON.stringify({ awsEndpoint: stack.awsEndpoint, services }));
}
print(lines.join("\n"));
