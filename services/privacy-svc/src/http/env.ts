import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { PrivacyDeps } from "../deps.ts";

/** privacy-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type PrivacyEnv = SeamEnv<PrivacyDeps>;
export type PrivacyApp = Hono<PrivacyEnv>;
