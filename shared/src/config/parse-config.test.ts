import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "vitest";
import { z } from "zod";
import { nodeBinary } from "../testing/node-binary.ts";
import { checkConfig } from "./parse-config.ts";

const boot = new URL("./testdata/boot.ts", import.meta.url).pathname;
const run = (env: Record<string, string>) =>
  spawnSync(nodeBinary, [boot], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 20_000 });

describe("parseConfig", () => {
  it("exits 1 and names every bad variable, one line each", () => {
    const result = run({
      PORT: "eighty",
      STAGE: "qa",
      JWT_ISSUER: "not a url",
      SESSION_SIGNING_SECRET: "short-but-secret-value",
      AWS_ENDPOINT_URL: "ftp://127.0.0.1:5000",
      // DATABASE_URL missing
    });
    assert.equal(result.status, 1);
    assert.equal(result.stdout, "");
    const lines = result.stderr.trim().split("\n");
    assert.match(lines[0]!, /Invalid configuration \(6 problems\)/);
    for (const name of ["PORT", "STAGE", "JWT_ISSUER", "SESSION_SIGNING_SECRET", "AWS_ENDPOINT_URL", "DATABASE_URL"]) {
      assert.equal(lines.filter((line) => line.trim().startsWith(`${name}:`)).length, 1, `one line for ${name}`);
    }
    assert.match(result.stderr, /DATABASE_URL: is required but not set/);
  });

  it("never prints the value of a secret-looking variable, but shows harmless ones", () => {
    const result = run({
      PORT: "eighty",
      SESSION_SIGNING_SECRET: "short-but-secret-value",
      JWT_ISSUER: "https://id.example",
    });
    assert.equal(result.status, 1);
    assert.doesNotMatch(result.stderr, /short-but-secret-value/);
    assert.match(result.stderr, /PORT: .*\(got "eighty"\)/);
  });

  it("starts with defaults derived from the prefix and stage when the environment is valid", () => {
    const result = run({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x",
      JWT_ISSUER: "https://id.example",
      SESSION_SIGNING_SECRET: "x".repeat(32),
      SERVICE_PREFIX: "acme",
      STAGE: "prod",
      AWS_ENDPOINT_URL: "", // empty means unset, as compose files write it
    });
    assert.equal(result.status, 0, result.stderr);
    const config = JSON.parse(result.stdout);
    assert.equal(config.PORT, 8081);
    assert.equal(config.HOST, "127.0.0.1");
    assert.equal(config.EVENT_BUS_NAME, "acme-prod-domain");
    assert.equal("INTERNAL_AUTH_SECRET_ID" in config, false);
    assert.equal("AWS_ENDPOINT_URL" in config, false);
  });
});

describe("checkConfig", () => {
  it("returns the parsed value without exiting", () => {
    const checked = checkConfig(z.object({ N: z.coerce.number() }), { N: "3" });
    assert.deepEqual(checked, { ok: true, value: { N: 3 } });
  });

  it("reports a URL-valued variable without its value, since URLs can embed passwords", () => {
    const checked = checkConfig(z.object({ DATABASE_URL: z.string().startsWith("postgres://") }), {
      DATABASE_URL: "mysql://root:hunter2hunter2@db",
    });
    assert.equal(checked.ok, false);
    assert.equal(checked.ok || checked.problems.length, 1);
    assert.doesNotMatch(JSON.stringify(checked), /hunter2hunter2/);
  });
});
