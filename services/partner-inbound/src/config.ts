import { serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

/**
 * partner-inbound's environment. No DATABASE_URL and no bucket, table or cache variable on purpose:
 * it runs in us-east-1 and keeps nothing there (ADR 0003); the residency test checks its code.
 */
export const PartnerInboundConfig = serviceConfigSchema({
  service: "partner-inbound",
  extra: {
    /** connector-svc, whose internal API lists the connected seller accounts (the map's rebuild). */
    CONNECTOR_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** How often the account → tenant map is rebuilt from connector-svc, besides the events. */
    TENANT_MAP_REFRESH_MS: z.coerce.number().int().min(1000).default(300_000),
  },
});
export type PartnerInboundConfig = z.output<typeof PartnerInboundConfig>;
