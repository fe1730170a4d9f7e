import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { createInterface } from "node:readline";
import { describe, it, onTestFinished } from "vitest";
import { captureLogs } from "../log/capture.ts";
import { createLogger } from "../log/logger.ts";
import { nodeBinary } from "../testing/node-binary.ts";
import { expectProblem } from "../testing/problem.ts";
import { createServiceApp } from "./app.ts";
import { serve } from "./serve.ts";

const child = new URL("./testdata/serve-child.ts", import.meta.url).pathname;

/** Starts the child service and follows its JSON log lines on stdout. */
function startChild(env: Record<string, string> = {}) {
  const proc = spawn(nodeBinary, [child], {
    env: { PATH: process.env.PATH, NODE_ENV: "test", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: Array<{ msg: string; resolve: (l: Record<string, unknown>) => void }> = [];
  createInterface({ input: proc.stdout! }).on("line", (text) => {
    const line = JSON.parse(text);
    lines.push(line);
    for (const w of waiters.filter((w) => w.msg === line.msg)) w.resolve(line);
  });
  const waitFor = (msg: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = lines.find((l) => l.msg === msg);
      if (seen) resolve(seen);
      else waiters.push({ msg, resolve });
    });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return { proc, lines, waitFor, exited };
}

const kill = (proc: ChildProcess) => {
  if (proc.exitCode === null) proc.kill("SIGKILL");
};

describe("serve", () => {
  it("logs where it listens, drains in-flight requests on SIGTERM, runs the hooks and exits 0", async () => {
    const svc = startChild();
    onTestFinished(() => kill(svc.proc));
    const { url } = (await svc.waitFor("listening")) as { url: string };
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);

    const inFlight = fetch(`${url}/slow?ms=600`);
    await svc.waitFor("slow request started");
    svc.proc.kill("SIGTERM");
    await svc.waitFor("shutting down");
    await assert.rejects(fetch(`${url}/healthz`), "no new connections once shutdown began");

    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { finished: true });
    assert.equal(await svc.exited, 0);
    const order = svc.lines.map((l) => l.msg).filter((m) => m !== "request" && m !== "slow request started");
    assert.deepEqual(order, ["listening", "shutting down", "hook ran", "stopped"]);
  });

  it("keeps draining when a second signal arrives during the drain (Ctrl-C twice)", async () => {
    const svc = startChild();
    onTestFinished(() => kill(svc.proc));
    const { url } = (await svc.waitFor("listening")) as { url: string };
    const inFlight = fetch(`${url}/slow?ms=600`);
    await svc.waitFor("slow request started");
    svc.proc.kill("SIGINT");
    await svc.waitFor("shutting down");
    svc.proc.kill("SIGINT");
    const res = await inFlight;
    assert.deepEqual(await res.json(), { finished: true });
    assert.equal(await svc.exited, 0);
    assert.ok(svc.lines.some((l) => l.msg === "hook ran"));
  });

  it("cuts requests that outlive the drain deadline and still exits 0", async () => {
    const svc = startChild({ DRAIN_TIMEOUT_MS: "200" });
    onTestFinished(() => kill(svc.proc));
    const { url } = (await svc.waitFor("listening")) as { url: string };
    const inFlight = fetch(`${url}/slow?ms=10000`).then(
      () => "answered",
      () => "cut",
    );
    await svc.waitFor("slow request started");
    const started = Date.now();
    svc.proc.kill("SIGTERM");
    assert.equal(await svc.exited, 0);
    assert.ok(Date.now() - started < 5000, "exited long before the slow request would have finished");
    assert.equal(await inFlight, "cut");
    assert.ok(svc.lines.some((l) => l.msg === "drain deadline passed; closing remaining connections"));
  });

  it("enforces the body limit on a real socket, by Content-Length and when chunked", async () => {
    const logs = captureLogs();
    const logger = createLogger({ service: "serve-test", destination: logs.stream });
    const app = createServiceApp({ name: "serve-test", logger, bodyLimitBytes: 64 });
    app.post("/echo", async (c) => c.json({ bytes: (await c.req.text()).length }));
    const running = await serve(app, { host: "127.0.0.1", port: 0, logger, handleSignals: false });
    onTestFinished(() => running.shutdown());

    const send = (body: string, chunked: boolean) =>
      new Promise<Response>((resolve, reject) => {
        const req = request(`${running.url}/echo`, {
          method: "POST",
          headers: chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(Buffer.byteLength(body)) },
        });
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve(
              new Response(Buffer.concat(chunks), {
                status: res.statusCode!,
                headers: res.headers as Record<string, string>,
              }),
            ),
          );
        });
        req.on("error", reject);
        if (chunked) for (const part of body.match(/.{1,16}/g) ?? []) req.write(part);
        else req.write(body);
        req.end();
      });

    assert.equal((await send("x".repeat(64), false)).status, 200);
    assert.equal((await send("x".repeat(64), true)).status, 200);
    await expectProblem(await send("x".repeat(65), false), 413, "PAYLOAD_TOO_LARGE");
    await expectProblem(await send("x".repeat(200), true), 413, "PAYLOAD_TOO_LARGE");
  });

  it("echoes the request id on a real socket and reports the chosen port", async () => {
    const logger = createLogger({ service: "serve-test", level: "silent", env: {} });
    const running = await serve(createServiceApp({ name: "serve-test", logger }), {
      host: "127.0.0.1",
      port: 0,
      logger,
      handleSignals: false,
    });
    onTestFinished(() => running.shutdown());
    assert.ok(running.port > 0);
    const res = await fetch(`${running.url}/healthz`, { headers: { "x-request-id": "edge-req-000123" } });
    assert.equal(res.headers.get("x-request-id"), "edge-req-000123");
    const fresh = await fetch(`${running.url}/nope`);
    await expectProblem(fresh, 404, "NOT_FOUND");
  });
});
