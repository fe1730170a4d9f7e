import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { serviceRoles } from "@flowstate/shared/db/service-roles";
import { describe, test } from "vitest";
import { parse } from "yaml";
import type { StackOutputs } from "./bootstrap.ts";
import { defineStack } from "./definition.ts";
import { CONTRACT_VARIABLES, SERVICE_VARIABLES, stackEnvironment } from "./environment.ts";

const root = new URL("../../", import.meta.url);
// `merge: true` resolves the `<<: *env` keys the way Docker Compose does.
const compose = parse(readFileSync(new URL("docker-compose.yml", root), "utf8"), { merge: true }) as {
  services: Record<
    string,
    {
      command?: string[];
      environment?: Record<string, string>;
      depends_on?: Record<string, unknown>;
      ports?: unknown[];
    }
  >;
};
const serviceDirs = readdirSync(new URL("services/", root), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const infrastructure = new Set(["postgres", "localstack", "bootstrap", "database-roles"]);

describe("docker-compose.yml", () => {
  test("runs every directory in services/ as a compose service with its own entry point", () => {
    for (const name of serviceDirs) {
      const service = compose.services[name];
      assert.ok(service, `services/${name} is missing from docker-compose.yml`);
      assert.deepEqual(service.command, ["node", `services/${name}/src/main.ts`]);
    }
  });

  test("runs nothing that services/ does not have, besides PostgreSQL, LocalStack, the bootstrap and the database roles", () => {
    const extra = Object.keys(compose.services).filter(
      (name) => !infrastructure.has(name) && !serviceDirs.includes(name),
    );
    assert.deepEqual(extra, []);
  });

  test("gives each service every variable of the environment contract and its own", () => {
    for (const name of serviceDirs) {
      const env = compose.services[name]?.environment ?? {};
      const missing = [...CONTRACT_VARIABLES, ...(SERVICE_VARIABLES[name] ?? [])].filter((v) => !(v in env));
      assert.deepEqual(missing, [], `${name} lacks ${missing.join(", ")}`);
    }
  });

  test("points every service at the compose network's PostgreSQL, LocalStack and seller sandbox", () => {
    for (const name of serviceDirs) {
      const env = compose.services[name]?.environment ?? {};
      assert.match(env.DATABASE_URL ?? "", /@postgres:5432\//);
      assert.equal(env.AWS_ENDPOINT_URL, "http://localstack:4566");
      assert.equal(env.MARKETPLACE_ENDPOINT_URL, "http://seller-sandbox:8090");
    }
  });

  test("logs every service with a database in as its own role, created before it starts (issue 20)", () => {
    const env = compose.services["identity-svc"]?.environment ?? {};
    const roles = serviceRoles(env.SERVICE_PREFIX ?? "", env.STAGE ?? "");
    assert.deepEqual(compose.services["database-roles"]?.command, ["node", "deploy/local/database-roles.ts"]);
    assert.equal(
      compose.services["database-roles"]?.environment?.DATABASE_URL,
      "postgres://postgres@postgres:5432/flowstate",
    );
    for (const { service, role } of roles) {
      const url = compose.services[service]?.environment?.DATABASE_URL ?? "";
      assert.equal(new URL(url).username, role, service);
      assert.deepEqual(compose.services[service]?.depends_on?.["database-roles"], {
        condition: "service_completed_successfully",
      });
    }
    // audit-svc provisions its own owner and insert-only roles from the administrator's URL.
    assert.equal(compose.services["audit-svc"]?.environment?.AUDIT_PROVISION_ROLES, "true");
  });

  test("names the resources the bootstrap creates in LocalStack's account, as npm start would pass them", () => {
    const env = compose.services["identity-svc"]?.environment ?? {};
    const settings = {
      prefix: env.SERVICE_PREFIX ?? "",
      stage: env.STAGE ?? "",
      accountId: env.FLOWSTATE_ACCOUNT_ID ?? "",
      mailFrom: env.MAIL_FROM ?? "",
    };
    const def = defineStack(settings);
    const outputs = {
      busName: def.busName,
      keyAlias: def.keyAlias,
      mailFrom: def.mailFrom,
      buckets: Object.fromEntries(def.buckets.map((b) => [b.role, b.name])),
    } as StackOutputs;
    const expected = stackEnvironment(outputs, settings.prefix, settings.stage);
    const actual = Object.fromEntries(Object.keys(expected).map((name) => [name, env[name]]));
    assert.deepEqual(actual, expected);
  });

  test("leaves the sandbox's control plane to loopback callers unless the shell supplies a token", () => {
    // An empty value counts as unset (parseConfig), so the default compose file configures no token.
    assert.equal(
      compose.services["seller-sandbox"]?.environment?.SANDBOX_CONTROL_TOKEN,
      ["$", "{SANDBOX_CONTROL_TOKEN:-}"].join(""),
    );
  });

  test("publishes the two doors' ports and no other: services, database and emulators stay on the compose network", () => {
    const published = Object.entries(compose.services)
      .filter(([, service]) => service.ports?.length)
      .map(([name, service]) => [name, service.ports]);
    assert.deepEqual(published, [
      ["edge-gateway", ["8080:8080"]],
      ["mcp-gateway", ["8086:8086"]],
    ]);
  });

  test("starts the services only after the bootstrap has created the AWS resources", () => {
    for (const name of serviceDirs) {
      assert.deepEqual(compose.services[name]?.depends_on?.bootstrap, { condition: "service_completed_successfully" });
    }
    assert.deepEqual(compose.services.bootstrap?.command, ["node", "deploy/local/bootstrap.ts"]);
  });
});
