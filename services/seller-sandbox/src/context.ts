import type { Logger } from "@flowstate/shared/log/logger";
import type { Authenticator } from "./credentials/authenticate.ts";
import type { FlowstatePrincipal } from "./credentials/principals.ts";
import type { SessionStore } from "./credentials/sessions.ts";
import type { RoleStore } from "./iam/role-store.ts";
import type { SellerStore } from "./seller/store.ts";

/** Everything a request handler may use; built once by createSandbox and passed to createApp. */
export interface SandboxDeps {
  logger: Logger;
  principals: Map<string, FlowstatePrincipal>;
  sessions: SessionStore;
  roles: RoleStore;
  sellers: SellerStore;
  authenticator: Authenticator;
  flowstateAccountId: string;
  /** SANDBOX_CONTROL_TOKEN: what a caller off loopback must present to use `/_sandbox/*`. */
  controlToken?: string | undefined;
}
