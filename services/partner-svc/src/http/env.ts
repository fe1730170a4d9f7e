import type { TenantContext } from "@flowstate/contracts/internal/identity";
import type { ServiceEnv } from "@flowstate/shared/http/types";
import type { Hono } from "hono";
import type { PartnerDeps } from "../deps.ts";

/** partner-svc's Hono variables: the platform's plus the gateway-resolved tenant and the deps. */
export type PartnerEnv = {
  Variables: ServiceEnv["Variables"] & { tenant: TenantContext | undefined; deps: PartnerDeps };
};
export type PartnerApp = Hono<PartnerEnv>;
