import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { createApp } from "../app.ts";
import type { SandboxDeps } from "../context.ts";
import { DEFAULT_PRINCIPAL_KEYS } from "../credentials/principals.ts";
import { createSandbox, type SandboxSettings } from "../sandbox.ts";

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`: the endpoint for the SDK clients and the control plane. */
  endpoint: string;
  port: number;
  settings: SandboxSettings;
  deps: SandboxDeps;
  stop(): Promise<void>;
}

/** Settings for a sandbox in a test: the emulator from AWS_ENDPOINT_URL, the default keys, fast change sets. */
export function testSettings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint)
    throw new Error("AWS_ENDPOINT_URL must point at the local AWS emulator (run tests with scripts/test.ts)");
  return {
    AWS_ENDPOINT_URL: endpoint,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "testing",
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "testing",
    FLOWSTATE_ACCOUNT_ID: "123456789012",
    SERVICE_PREFIX: "flowstate",
    STAGE: "dev",
    SANDBOX_BACKEND_ACCESS_KEY_ID: DEFAULT_PRINCIPAL_KEYS.backend.accessKeyId,
    SANDBOX_BACKEND_SECRET_ACCESS_KEY: DEFAULT_PRINCIPAL_KEYS.backend.secretAccessKey,
    SANDBOX_MCP_EXECUTION_ACCESS_KEY_ID: DEFAULT_PRINCIPAL_KEYS["mcp-execution"].accessKeyId,
    SANDBOX_MCP_EXECUTION_SECRET_ACCESS_KEY: DEFAULT_PRINCIPAL_KEYS["mcp-execution"].secretAccessKey,
    SANDBOX_VERIFY_SIGNATURES: true,
    SANDBOX_POLICY_CACHE_MS: 500,
    SANDBOX_CHANGE_SET_STEP_MS: 50,
    ...overrides,
  };
}

/**
 * Starts a sandbox in this process on a free loopback port (other services' tests use it as their
 * seller account); `listen.host` puts it on another address (`0.0.0.0` to be reached off
 * loopback, as in a compose network). Stop it in `after`.
 *
 * @example
 * const sandbox = await startSandbox();
 * afterAll(() => sandbox.stop());
 * const sts = new STSClient({ region: "us-east-1", endpoint: sandbox.endpoint, credentials: principalCredentials("backend") });
 */
export async function startSandbox(
  overrides: Partial<SandboxSettings> = {},
  listen: { host?: string } = {},
): Promise<RunningSandbox> {
  const settings = testSettings(overrides);
  const logger = createLogger({ service: "seller-sandbox" });
  const sandbox = createSandbox(settings, logger);
  const running = await serve(createApp(sandbox.deps), {
    host: listen.host ?? "127.0.0.1",
    port: 0,
    logger,
    handleSignals: false,
    drainTimeoutMs: 1000,
  });
  return {
    endpoint: running.url,
    port: running.port,
    settings,
    deps: sandbox.deps,
    async stop() {
      await running.shutdown("test done");
      sandbox.close();
    },
  };
}
