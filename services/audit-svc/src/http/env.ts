import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { AuditDeps } from "../deps.ts";

/** audit-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type AuditEnv = SeamEnv<AuditDeps>;
export type AuditApp = Hono<AuditEnv>;
