import type { CallContext } from "@flowstate/shared/seam/call-context";
import { systemCall } from "@flowstate/shared/seam/call-context";
import type { PrivacyDeps } from "./deps.ts";

/** What a privacy verb gets about the call it serves (shared/src/seam/call-context.ts). */
export type PrivacyCall = CallContext<PrivacyDeps>;

/** privacy-svc acting on its own judgement: a consumer building an export, the sweeper (actor `system`). */
export const ownCall = (deps: PrivacyDeps, trace?: string | undefined): PrivacyCall =>
  systemCall("privacy-svc", deps, { trace });
