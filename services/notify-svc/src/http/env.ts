import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { NotifyDeps } from "../deps.ts";

/** notify-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type NotifyEnv = SeamEnv<NotifyDeps>;
export type NotifyApp = Hono<NotifyEnv>;
