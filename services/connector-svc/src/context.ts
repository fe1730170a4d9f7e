import type { CallContext } from "@flowstate/shared/seam/call-context";
import type { ConnectorDeps } from "./deps.ts";

/**
 * What a verb needs about the call it serves: the seam's call context (shared/src/seam/), built per
 * request by the seam or per message by the consumer (`systemCall`); verbs never read globals.
 * Verbs fork an EntityManager only when they write (reads go to the pool as prepared statements).
 */
export type ServiceContext = CallContext<ConnectorDeps>;
