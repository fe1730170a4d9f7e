import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { startDoorFleet } from "./door-fleet.ts";

const p = (v: number[], q: number) => [...v].sort((a, b) => a - b)[Math.floor((v.length * q) / 100)] ?? NaN;

describe("push cost (measurement, not committed)", () => {
  for (const [edges, mcps] of [
    [1, 1],
    [2, 2],
  ] as const) {
    it(`${edges + mcps} instances`, async () => {
      const since = Date.now();
      const fleet = await startDoorFleet({ edges, mcps });
      const edge = fleet.edges[0]!;
      const post = async (path: string, body?: unknown, token?: string) => {
        const res = await fetch(`${edge.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const text = await res.text();
        return { status: res.status, json: text ? JSON.parse(text) : undefined };
      };
      const email = `cost-${randomUUID()}@example.test`;
      const password = `pw-${randomUUID()}`;
      assert.equal((await post("/v1/auth/signup", { email, password, name: "Cost" })).status, 201);
      const client: number[] = [];
      for (let i = 0; i < 60; i++) {
        const t = (await post("/v1/auth/signin", { email, password })).json.access_token as string;
        const s = performance.now();
        assert.equal((await post("/v1/auth/signout", undefined, t)).status, 204);
        client.push(performance.now() - s);
      }
      await fleet.close();
      const dir = process.env.FLOWSTATE_LOG_DIR!;
      const pushMs: number[] = [];
      for (const f of readdirSync(dir)) {
        if (!f.startsWith("identity-svc-") || statSync(join(dir, f)).mtimeMs < since) continue;
        for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
          if (!line.includes("invalidations pushed")) continue;
          const j = JSON.parse(line);
          if (j.doors === edges + mcps && Date.parse(j.time) >= since) pushMs.push(j.pushMs);
        }
      }
      console.log(
        `${edges + mcps} doors: push p50 ${p(pushMs, 50).toFixed(2)} ms p95 ${p(pushMs, 95).toFixed(2)} ms (n=${pushMs.length}); sign-out at the client p50 ${p(client, 50).toFixed(1)} ms`,
      );
    }, 300_000);
  }
});
