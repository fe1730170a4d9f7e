import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { ConnectorDeps } from "../deps.ts";

/** connector-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type ConnectorEnv = SeamEnv<ConnectorDeps>;
export type ConnectorApp = Hono<ConnectorEnv>;
