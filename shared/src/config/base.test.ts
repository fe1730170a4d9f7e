import assert from "node:assert/strict";
import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { describe, it } from "vitest";
import { z } from "zod";
import { booleanVar, derivedNames, queueNames, serviceConfigSchema, withDerivedDefaults } from "./base.ts";
import { checkConfig } from "./parse-config.ts";

describe("serviceConfigSchema", () => {
  it("applies the environment contract's defaults, the port the services catalog gives the service", () => {
    const checked = checkConfig(serviceConfigSchema({ service: "edge-gateway" }), {});
    assert.equal(checked.ok, true);
    assert.deepEqual(checked.ok && checked.value, {
      STAGE: "dev",
      SERVICE_PREFIX: "flowstate",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      PORT: 8080,
      EVENT_BUS_NAME: "flowstate-dev-domain",
    });
  });

  it("requires DATABASE_URL where the services catalog says the service owns a schema", () => {
    const withDb = checkConfig(serviceConfigSchema({ service: "identity-svc" }), {});
    assert.equal(withDb.ok, false);
    assert.match(withDb.ok ? "" : withDb.problems.join("\n"), /^DATABASE_URL: is required/m);
    const [sandbox, partner] = [
      serviceConfigSchema({ service: "seller-sandbox" }),
      serviceConfigSchema({ service: "partner-inbound" }),
    ];
    assert.deepEqual(
      [checkConfig(sandbox, {}), checkConfig(partner, {})].map((c) => c.ok && c.value.PORT),
      [serviceCatalog["seller-sandbox"].port, serviceCatalog["partner-inbound"].port],
    );
  });

  it("keeps explicit values over derived defaults and adds the service's own variables", () => {
    const schema = serviceConfigSchema({ service: "edge-gateway", extra: { IDENTITY_URL: z.url() } });
    const checked = checkConfig(schema, {
      EVENT_BUS_NAME: "custom-bus",
      IDENTITY_URL: "http://127.0.0.1:8081",
      PORT: "0",
    });
    assert.equal(checked.ok, true);
    if (!checked.ok) return;
    assert.equal(checked.value.EVENT_BUS_NAME, "custom-bus");
    assert.equal(checked.value.IDENTITY_URL, "http://127.0.0.1:8081");
    assert.equal(checked.value.PORT, 0);
  });

  it("types the parsed configuration without casts: derived names are strings, DATABASE_URL only with a database", () => {
    const stateless = checkConfig(serviceConfigSchema({ service: "edge-gateway" }), {});
    const withDb = checkConfig(serviceConfigSchema({ service: "identity-svc" }), { DATABASE_URL: "postgres://x@h/db" });
    assert.ok(stateless.ok && withDb.ok);
    const bus: string = stateless.value.EVENT_BUS_NAME;
    const url: string = withDb.value.DATABASE_URL;
    // @ts-expect-error a service without a database has no DATABASE_URL
    void stateless.value.DATABASE_URL;
    assert.deepEqual([bus, url], ["flowstate-dev-domain", "postgres://x@h/db"]);
  });

  it("turns the outbox-lag metric on every 60 s unless asked off, and off under NODE_ENV=test unless asked on", () => {
    const schema = serviceConfigSchema({ service: "identity-svc" });
    const lag = (env: NodeJS.ProcessEnv) => {
      const checked = checkConfig(schema, { DATABASE_URL: "postgres://x@h/db", ...env });
      assert.ok(checked.ok);
      return checked.value.OUTBOX_LAG_METRIC_MS;
    };
    assert.equal(lag({}), 60_000);
    assert.equal(lag({ NODE_ENV: "production" }), 60_000);
    assert.equal(lag({ NODE_ENV: "test" }), 0);
    assert.equal(lag({ NODE_ENV: "test", OUTBOX_LAG_METRIC_MS: "250" }), 250);
    assert.equal(lag({ OUTBOX_LAG_METRIC_MS: "0" }), 0);
    assert.equal(checkConfig(schema, { DATABASE_URL: "postgres://x@h/db", OUTBOX_LAG_METRIC_MS: "-1" }).ok, false);
  });

  it("refuses a port outside 0..65535 and an unknown log level", () => {
    const checked = checkConfig(serviceConfigSchema({ service: "edge-gateway" }), {
      PORT: "70000",
      LOG_LEVEL: "loud",
    });
    assert.equal(checked.ok, false);
    const text = checked.ok ? "" : checked.problems.join("\n");
    assert.match(text, /^PORT:/m);
    assert.match(text, /^LOG_LEVEL:/m);
  });
});

describe("derived names", () => {
  it("derives the bus from prefix and stage, and names no shared assertion key (keys per caller, ADR 0014)", () => {
    const env = withDerivedDefaults({ SERVICE_PREFIX: "fs", STAGE: "prod" });
    assert.equal(env.EVENT_BUS_NAME, "fs-prod-domain");
    assert.equal("INTERNAL_AUTH_SECRET_ID" in env, false);
  });

  it("names a consumer's queue and its DLQ after prefix, stage and service", () => {
    assert.deepEqual(queueNames({ SERVICE_PREFIX: "flowstate", STAGE: "dev" }, "privacy-svc"), {
      queue: "flowstate-dev-privacy-svc",
      dlq: "flowstate-dev-privacy-svc-dlq",
    });
  });
});

describe("booleanVar", () => {
  it("reads true/false and 1/0 in any case, defaults when unset, and refuses anything else", () => {
    const Flag = z.object({ FLAG: booleanVar(true) });
    for (const [raw, want] of [
      ["true", true],
      ["TRUE", true],
      ["1", true],
      ["false", false],
      ["0", false],
    ] as const) {
      assert.deepEqual(checkConfig(Flag, { FLAG: raw }), { ok: true, value: { FLAG: want } }, raw);
    }
    assert.deepEqual(checkConfig(Flag, {}), { ok: true, value: { FLAG: true } });
    for (const raw of ["yes", "off", "tru"]) assert.equal(checkConfig(Flag, { FLAG: raw }).ok, false, raw);
  });
});

describe("derivedNames", () => {
  it("derives every prefix-and-stage name in one place", () => {
    assert.deepEqual(derivedNames({ SERVICE_PREFIX: "fs", STAGE: "prod" }), {
      eventBus: "fs-prod-domain",
      signingKeysSecretId: "fs/prod/identity/signing-keys",
      signInThrottleSecretId: "fs/prod/identity/sign-in-throttle-key",
    });
  });
});
