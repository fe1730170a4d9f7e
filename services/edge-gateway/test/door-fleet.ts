import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { openTestDatabase, type TestDatabase } from "@flowstate/shared/db/test-database";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { bootstrap } from "../../../deploy/local/bootstrap.ts";
import { stackEnvironment } from "../../../deploy/local/environment.ts";
import { freePort } from "../../../deploy/local/ports.ts";

const root = join(import.meta.dirname, "..", "..", "..");

export interface Door {
  name: string;
  url: string;
  process: ChildProcess;
}

/**
 * identity-svc and several instances of each door (edge-gateway, mcp-gateway) as real processes
 * started from their `src/main.ts`, as `npm start` and a deployment run them: every instance of a
 * door shares that door's SQS queue (`<prefix>-<stage>-<door>`), as in production, where each
 * AccessRevoked event reaches one of them. The edge instances share one public origin (the first
 * one's: the issuer), the MCP instances one resource (the first one's `/mcp`), as behind a load
 * balancer. Rate limits are lifted: the test makes many anonymous calls from one address.
 *
 * @example
 * const fleet = await startDoorFleet({ edges: 2, mcps: 2 });
 * await fetch(`${fleet.edges[1]!.url}/v1/users/me`, …);
 * await fleet.close();
 */
export async function startDoorFleet(options: { edges: number; mcps: number; env?: NodeJS.ProcessEnv }) {
  const prefix = `fl${randomBytes(3).toString("hex")}`;
  const children: ChildProcess[] = [];
  const aws = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL });
  const { outputs } = await bootstrap({ aws, prefix, stage: "dev", mailFrom: `no-reply@${prefix}.local` });
  const db: TestDatabase = await openTestDatabase({ prefix: "gw_fleet" });
  const identityUrl = `http://127.0.0.1:${await freePort()}`;
  const edgePorts = await Promise.all(Array.from({ length: options.edges }, () => freePort()));
  const mcpPorts = await Promise.all(Array.from({ length: options.mcps }, () => freePort()));
  const issuer = `http://127.0.0.1:${edgePorts[0]}`;
  const mcpOrigin = `http://127.0.0.1:${mcpPorts[0]}`;
  const env: NodeJS.ProcessEnv = {
    ...stackEnvironment(outputs, prefix, "dev"),
    SERVICE_PREFIX: prefix,
    STAGE: "dev",
    // FLEET_LOG_LEVEL=info keeps identity-svc's "invalidations pushed" lines (pushMs) in FLOWSTATE_LOG_DIR.
    LOG_LEVEL: process.env.FLEET_LOG_LEVEL ?? "warn",
    IDENTITY_URL: identityUrl,
    JWT_ISSUER: issuer,
    MCP_GATEWAY_URL: mcpOrigin,
    MCP_PUBLIC_URL: mcpOrigin,
    RATE_LIMIT_CREDENTIAL_PER_SEC: "100000",
    RATE_LIMIT_CREDENTIAL_BURST: "100000",
    RATE_LIMIT_TENANT_PER_SEC: "100000",
    RATE_LIMIT_TENANT_BURST: "100000",
    RATE_LIMIT_ANONYMOUS_PER_SEC: "100000",
    RATE_LIMIT_ANONYMOUS_BURST: "100000",
    ...options.env,
  };
  const start = (service: string, extra: NodeJS.ProcessEnv) => {
    const child = spawn(nodeBinary, [join(root, "services", service, "src", "main.ts")], {
      env: { ...process.env, ...env, ...extra },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(child);
    return child;
  };
  const ready = (url: string, what: string) =>
    waitFor(
      () =>
        fetch(`${url}/readyz`).then(
          (r) => r.ok || undefined,
          () => undefined,
        ),
      120_000,
      `${what} ready`,
      200,
    );

  start("identity-svc", {
    PORT: new URL(identityUrl).port,
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_SCHEMA: db.schema,
  });
  await ready(identityUrl, "identity-svc");
  const doors: Door[] = [];
  for (const [kind, ports] of [
    ["edge-gateway", edgePorts],
    ["mcp-gateway", mcpPorts],
  ] as const) {
    for (const [i, port] of ports.entries()) {
      const child = start(kind, { PORT: String(port), METRICS_PORT: String(await freePort()) });
      doors.push({ name: `${kind}#${i}`, url: `http://127.0.0.1:${port}`, process: child });
    }
  }
  await Promise.all(doors.map((d) => ready(d.url, d.name)));
  return {
    issuer,
    /** The OAuth resource every MCP instance serves (its tokens' audience). */
    resource: `${mcpOrigin}/mcp`,
    identityUrl,
    edges: doors.filter((d) => d.name.startsWith("edge")),
    mcps: doors.filter((d) => d.name.startsWith("mcp")),
    async close() {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGTERM");
              setTimeout(() => c.kill("SIGKILL"), 5_000).unref();
            }),
        ),
      );
      await db.close();
    },
  };
}
export type DoorFleet = Awaited<ReturnType<typeof startDoorFleet>>;
