import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { CredentialCheck, SeamDeps } from "@flowstate/shared/seam/call-context";
import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";

/** Everything the fixture runs on: the platform's deps, its keys per caller and its credential check. */
export interface WidgetsDeps extends SeamDeps {
  callerKeys: Keyring;
  credentials: CredentialCheck;
}

export type WidgetsApp = Hono<SeamEnv<WidgetsDeps>>;
