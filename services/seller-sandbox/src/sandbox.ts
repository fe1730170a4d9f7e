import type { Logger } from "@flowstate/shared/log/logger";
import type { SandboxConfig } from "./config.ts";
import type { SandboxDeps } from "./context.ts";
import { createAuthenticator } from "./credentials/authenticate.ts";
import { buildPrincipals } from "./credentials/principals.ts";
import { SessionStore } from "./credentials/sessions.ts";
import { AccountIam } from "./iam/account-iam.ts";
import { RoleStore } from "./iam/role-store.ts";
import { nowOf } from "./seller/clock.ts";
import { SellerStore } from "./seller/store.ts";

/**
 * What the sandbox itself needs (tests build it without an environment; main.ts passes the parsed
 * config, whose AWS_ENDPOINT_URL the sandbox's schema makes required).
 */
export interface SandboxSettings
  extends Pick<
    SandboxConfig,
    | "AWS_ACCESS_KEY_ID"
    | "AWS_SECRET_ACCESS_KEY"
    | "FLOWSTATE_ACCOUNT_ID"
    | "SERVICE_PREFIX"
    | "STAGE"
    | "SANDBOX_BACKEND_ACCESS_KEY_ID"
    | "SANDBOX_BACKEND_SECRET_ACCESS_KEY"
    | "SANDBOX_MCP_EXECUTION_ACCESS_KEY_ID"
    | "SANDBOX_MCP_EXECUTION_SECRET_ACCESS_KEY"
    | "SANDBOX_VERIFY_SIGNATURES"
    | "SANDBOX_POLICY_CACHE_MS"
    | "SANDBOX_CHANGE_SET_STEP_MS"
    | "SANDBOX_CONTROL_TOKEN"
  > {
  AWS_ENDPOINT_URL: string;
}

/**
 * Wires the sandbox's parts from its settings. `close()` stops change-set timers and the
 * emulator clients.
 *
 * @example
 * const { deps, close } = createSandbox(config, logger);
 * const app = createApp(deps);
 */
export function createSandbox(settings: SandboxSettings, logger: Logger): { deps: SandboxDeps; close(): void } {
  const iam = new AccountIam({
    endpoint: settings.AWS_ENDPOINT_URL,
    credentials: { accessKeyId: settings.AWS_ACCESS_KEY_ID, secretAccessKey: settings.AWS_SECRET_ACCESS_KEY },
  });
  const roles = new RoleStore(iam, { ttlMs: settings.SANDBOX_POLICY_CACHE_MS });
  const sellers = new SellerStore({ changeSetStepMs: settings.SANDBOX_CHANGE_SET_STEP_MS });
  const sessions = new SessionStore();
  const principals = buildPrincipals({
    flowstateAccountId: settings.FLOWSTATE_ACCOUNT_ID,
    prefix: settings.SERVICE_PREFIX,
    stage: settings.STAGE,
    keys: {
      backend: {
        accessKeyId: settings.SANDBOX_BACKEND_ACCESS_KEY_ID,
        secretAccessKey: settings.SANDBOX_BACKEND_SECRET_ACCESS_KEY,
      },
      "mcp-execution": {
        accessKeyId: settings.SANDBOX_MCP_EXECUTION_ACCESS_KEY_ID,
        secretAccessKey: settings.SANDBOX_MCP_EXECUTION_SECRET_ACCESS_KEY,
      },
    },
  });
  const authenticator = createAuthenticator({
    principals,
    sessions,
    verifySignatures: settings.SANDBOX_VERIFY_SIGNATURES,
    flowstateAccountId: settings.FLOWSTATE_ACCOUNT_ID,
    now: (account) => nowOf(sellers.get(account)),
  });
  const deps: SandboxDeps = {
    logger,
    principals,
    sessions,
    roles,
    sellers,
    authenticator,
    flowstateAccountId: settings.FLOWSTATE_ACCOUNT_ID,
    controlToken: settings.SANDBOX_CONTROL_TOKEN,
  };
  return {
    deps,
    close() {
      sellers.close();
      iam.destroy();
    },
  };
}
