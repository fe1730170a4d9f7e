import { serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

/** partner-svc's environment: the shared contract plus its schema. */
export const PartnerConfig = serviceConfigSchema({
  service: "partner-svc",
  extra: {
    DATABASE_SCHEMA: z.string().default("partner"),
  },
});
export type PartnerConfig = z.output<typeof PartnerConfig>;
