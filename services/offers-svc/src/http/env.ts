import type { ServiceEnv } from "@flowstate/shared/http/types";
import type { Hono } from "hono";
import type { ServiceContext } from "../context.ts";

/** offers-svc's Hono variables: the platform's plus the verb context built per request. */
export type OffersEnv = { Variables: ServiceEnv["Variables"] & { ctx: ServiceContext } };
export type OffersApp = Hono<OffersEnv>;
