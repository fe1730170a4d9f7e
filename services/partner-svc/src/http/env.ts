import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { PartnerDeps } from "../deps.ts";

/** partner-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type PartnerEnv = SeamEnv<PartnerDeps>;
export type PartnerApp = Hono<PartnerEnv>;
