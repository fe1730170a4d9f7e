import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ServiceName, serviceCatalog, serviceNames, urlVariable } from "@flowstate/contracts/services/catalog";
import { DEFAULT_PRINCIPAL_KEYS_ENV } from "@flowstate/seller-sandbox/credentials/principals";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { baseEnv } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { z } from "zod";
import { bootstrap, type StackOutputs } from "./bootstrap.ts";
import { type Child, formatLogLine, startChild, waitHealthy } from "./children.ts";
import { COMPILE_CACHE_DIR } from "./compile-cache.ts";
import { localDatabaseUrls } from "./database-roles.ts";
import { BOOTSTRAP_CLIENTS } from "./definition.ts";
import { DEFAULT_METRICS_PORTS, DEFAULT_PORTS, stackEnvironment } from "./environment.ts";
import { type Moto, startMoto } from "./moto.ts";
import { assignPorts } from "./ports.ts";
import { embeddedDataDir, localPostgres } from "./postgres.ts";
import { StackEnv } from "./settings.ts";

/**
 * The sandbox stands for Flowstate's two principals with public keys (services/seller-sandbox
 * README); services that reach sellers' accounts sign with them locally. Against real AWS
 * (MARKETPLACE_ENDPOINT_URL set elsewhere, or unset in production) they are not given.
 */
function sandboxPrincipalKeys(): NodeJS.ProcessEnv {
  return { ...DEFAULT_PRINCIPAL_KEYS_ENV };
}

const StartEnv = StackEnv.extend({
  HOST: baseEnv.HOST,
  LOG_LEVEL: baseEnv.LOG_LEVEL,
  // Unset: the server on 127.0.0.1:5432 when one answers, else an embedded one (postgres.ts).
  DATABASE_URL: baseEnv.DATABASE_URL.optional(),
  // Where the scripts look for a running server when DATABASE_URL is unset (tests close it to get the embedded one).
  FLOWSTATE_LOCAL_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5432),
  MARKETPLACE_ENDPOINT_URL: baseEnv.MARKETPLACE_ENDPOINT_URL,
  // Any value but empty: every service on a kernel-chosen port (parallel stacks in tests).
  FLOWSTATE_FREE_PORTS: z.string().optional(),
  // How long each service may take to answer /healthz; a loaded machine starting every service at
  // once needs more than the default.
  FLOWSTATE_HEALTH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
});

export interface StartedService {
  name: string;
  url: string;
  /** The internal /metrics listener of a service that has one apart from its main port (the gateways). */
  metricsUrl?: string;
  healthy: boolean;
  error?: string;
  child: Child;
}

export interface RunningStack {
  databaseUrl: string;
  /** Where the database came from: DATABASE_URL, the server on 127.0.0.1:5432, or the embedded one. */
  databaseSource: "given" | "local" | "embedded";
  awsEndpoint: string | undefined;
  /** True when the stack started its own moto_server (no AWS_ENDPOINT_URL given). */
  ownMoto: boolean;
  outputs: StackOutputs;
  services: StartedService[];
  /**
   * Starts a service again on its port and environment once its process has gone (the fault suite
   * kills services mid-flow: npm start itself never restarts one), and waits until it is healthy.
   */
  restart(name: string): Promise<StartedService>;
  stop(): Promise<void>;
}

const isDoor = (name: string) => serviceCatalog[name as ServiceName]?.kind === "door";

/**
 * Every process of the services catalog (contracts/src/services/catalog.ts) in start-up order: the
 * sandbox, the services, then the doors. Each must have `services/<name>/src/main.ts`.
 */
export function discoverServices(root: string): ServiceName[] {
  for (const name of serviceNames) {
    if (!existsSync(join(root, "services", name, "src", "main.ts")))
      throw new Error(`services/${name}/src/main.ts is missing (listed in contracts/src/services/catalog.ts)`);
  }
  return [...serviceNames];
}

/**
 * Brings up the local system: PostgreSQL, moto (unless AWS_ENDPOINT_URL is set), the bootstrap,
 * then every service as a Node child process with the environment contract, and waits for each
 * /healthz. A service that fails to come up is reported, not fatal: the others keep running.
 *
 * @example
 * const stack = await startStack({ root, env: process.env, print: console.log });
 * stack.services.find((s) => s.name === "edge-gateway")?.url;
 * await stack.stop();
 */
export async function startStack(options: {
  root: string;
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  /** Aborting stops whatever has started so far, and startStack rejects (Ctrl-C during start-up). */
  signal?: AbortSignal;
  /**
   * Variables for one service only, over everything else it gets (the fault suite points
   * privacy-svc's AWS calls through a proxy that can hold its SES sends). Restarts keep them.
   */
  serviceEnv?: Record<string, NodeJS.ProcessEnv>;
}): Promise<RunningStack> {
  const env = parseConfig(StartEnv, options.env);
  const say = options.print;
  const postgres = await localPostgres({
    root: options.root,
    database: "flowstate",
    url: env.DATABASE_URL,
    localPort: env.FLOWSTATE_LOCAL_PG_PORT,
  });
  const databaseUrl = postgres.url;
  say(
    `PostgreSQL: ${redactUrl(databaseUrl)}${postgres.source === "embedded" ? ` (embedded, data in ${embeddedDataDir(options.root)})` : ""}`,
  );
  // Each service with a database logs in as its own role owning only its schema (issue 20).
  const databaseUrls = await localDatabaseUrls(databaseUrl, env.SERVICE_PREFIX, env.STAGE).catch(async (err) => {
    await postgres.stop();
    throw err;
  });

  let moto: Moto | undefined;
  if (!env.AWS_ENDPOINT_URL) {
    moto = await startMoto();
    say(`moto_server: ${moto.endpoint}`);
  }
  const awsEndpoint = env.AWS_ENDPOINT_URL ?? moto?.endpoint;
  // moto accepts any credentials; real AWS and LocalStack setups bring their own.
  const motoCredentials = moto ? { accessKeyId: "testing", secretAccessKey: "testing" } : undefined;
  const children: Child[] = [];
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop()));
    await moto?.stop();
    await postgres.stop();
  };
  const checkAborted = () => {
    if (options.signal?.aborted) throw new Error("start-up aborted");
  };
  // Children that are still booting are stopped at once; the health waits then fail fast.
  options.signal?.addEventListener("abort", () => void Promise.all(children.map((c) => c.stop())), { once: true });

  try {
    checkAborted();
    const aws = createAwsClients({
      allowed: BOOTSTRAP_CLIENTS,
      endpoint: awsEndpoint,
      credentials: motoCredentials,
    });
    const { outputs, changes } = await bootstrap({
      aws,
      prefix: env.SERVICE_PREFIX,
      stage: env.STAGE,
      mailFrom: env.MAIL_FROM,
    });
    say(`bootstrap: ${changes.length ? `${changes.length} change(s) applied` : "everything up to date"}`);
    checkAborted();

    const names = discoverServices(options.root);
    const ports = await assignPorts(names, env.HOST, DEFAULT_PORTS, Boolean(env.FLOWSTATE_FREE_PORTS));
    // The gateways serve /metrics on loopback only (their METRICS_HOST default), on a port of its own.
    const metricsPorts = await assignPorts(
      names.filter((n) => n in DEFAULT_METRICS_PORTS),
      "127.0.0.1",
      DEFAULT_METRICS_PORTS,
      Boolean(env.FLOWSTATE_FREE_PORTS),
    );
    const reachable = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
    const urls = new Map<string, string>(names.map((n) => [n, `http://${reachable}:${ports.get(n)}`]));
    const shared: NodeJS.ProcessEnv = {
      ...options.env,
      ...(motoCredentials && {
        AWS_ACCESS_KEY_ID: motoCredentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: motoCredentials.secretAccessKey,
      }),
      STAGE: env.STAGE,
      SERVICE_PREFIX: env.SERVICE_PREFIX,
      HOST: env.HOST,
      LOG_LEVEL: env.LOG_LEVEL,
      // The administrator's URL: audit-svc derives its roles from it; every other service with a
      // database gets its own role's URL below.
      DATABASE_URL: databaseUrl,
      // audit-svc connects as an insert-only role and migrates as its schema's owner; on this local,
      // trust-auth server it creates both from the administrator above (services/audit-svc README).
      AUDIT_PROVISION_ROLES: "true",
      // notify-svc: a developer's webhook receiver runs on this machine, over http (local development
      // only; production refuses both, services/notify-svc README).
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOWED_ADDRESSES: "127.0.0.1,::1",
      AWS_ENDPOINT_URL: awsEndpoint,
      // Node's on-disk code cache (V8 bytecode of every module, the stripped TypeScript included):
      // each service imports the AWS SDK, MikroORM, zod and Hono, and a stack starts ten of them, so
      // after the first boot each one compiles from the cache (an import of two services' apps:
      // 1.6 s of CPU without it, 1.05 s with it). Stale entries are checked against the source.
      NODE_COMPILE_CACHE: options.env.NODE_COMPILE_CACHE ?? COMPILE_CACHE_DIR,
      ...stackEnvironment(outputs, env.SERVICE_PREFIX, env.STAGE),
      ...Object.fromEntries(names.map((n) => [urlVariable(n), urls.get(n)])),
    };
    // Tokens are issued by the OAuth authorization server whose metadata the gateway serves at its
    // origin, so the issuer is the gateway's URL (MCP clients compare it with where they fetched it).
    const gatewayUrl = urls.get("edge-gateway");
    if (!options.env.JWT_ISSUER && gatewayUrl) shared.JWT_ISSUER = gatewayUrl;
    // A marketplace endpoint the user configured (e.g. real AWS: unset) wins over the sandbox.
    if (env.MARKETPLACE_ENDPOINT_URL) shared.MARKETPLACE_ENDPOINT_URL = env.MARKETPLACE_ENDPOINT_URL;
    else Object.assign(shared, sandboxPrincipalKeys());

    const start = (name: string): StartedService => {
      const child = startChild({
        name,
        command: process.execPath,
        args: ["src/main.ts"],
        cwd: join(options.root, "services", name),
        env: {
          ...shared,
          ...(databaseUrls.has(name) && { DATABASE_URL: databaseUrls.get(name) }),
          PORT: String(ports.get(name)),
          ...(metricsPorts.has(name) && { METRICS_PORT: String(metricsPorts.get(name)) }),
          ...options.serviceEnv?.[name],
        },
        print: say,
        format: formatLogLine,
      });
      children.push(child);
      const metricsPort = metricsPorts.get(name);
      return {
        name,
        url: urls.get(name)!,
        healthy: false,
        child,
        ...(metricsPort !== undefined && { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` }),
      };
    };
    const healthy = async (s: StartedService) => {
      try {
        await waitHealthy(`${s.url}/healthz`, s.child, env.FLOWSTATE_HEALTH_TIMEOUT_SECONDS * 1000);
        s.healthy = true;
      } catch (err) {
        s.error = `${(err as Error).message}\n    ${s.child.tail().slice(-10).join("\n    ")}`;
        await s.child.stop(2000);
      }
    };
    // Doors last: they fetch keys from (and route to) the services behind them at boot.
    const services: StartedService[] = [];
    for (const wave of [names.filter((n) => !isDoor(n)), names.filter(isDoor)]) {
      checkAborted();
      const started = wave.map(start);
      services.push(...started);
      await Promise.all(started.map(healthy));
    }
    checkAborted();
    const restart = async (name: string): Promise<StartedService> => {
      const at = services.findIndex((s) => s.name === name);
      if (at < 0) throw new Error(`no service ${name} in this stack`);
      await services[at]!.child.stop(2000);
      children.splice(children.indexOf(services[at]!.child), 1);
      const again = start(name);
      services[at] = again;
      await healthy(again);
      if (!again.healthy) throw new Error(`${name} did not come back: ${again.error}`);
      return again;
    };
    return {
      restart,
      databaseUrl,
      databaseSource: postgres.source,
      awsEndpoint,
      ownMoto: Boolean(moto),
      outputs,
      services,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Hides a password in a connection URL before printing it. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}
