import type { SeamEnv } from "@flowstate/shared/seam/seam";
import type { Hono } from "hono";
import type { OffersDeps } from "../deps.ts";

/** offers-svc's Hono variables: the platform's plus the seam's `call` (shared/src/seam/). */
export type OffersEnv = SeamEnv<OffersDeps>;
export type OffersApp = Hono<OffersEnv>;
