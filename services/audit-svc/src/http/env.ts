import type { ServiceEnv } from "@flowstate/shared/http/types";
import type { Hono } from "hono";
import type { ServiceContext } from "../context.ts";

/** audit-svc's Hono variables: the platform's plus the verb context built per request. */
export type AuditEnv = { Variables: ServiceEnv["Variables"] & { ctx: ServiceContext } };
export type AuditApp = Hono<AuditEnv>;
