/** A minimal service boot for parse-config.test.ts: parse the environment, print it, exit 0. */
import { z } from "zod";
import { serviceConfigSchema } from "../base.ts";
import { parseConfig } from "../parse-config.ts";

const Config = serviceConfigSchema({
  service: "identity-svc",
  extra: { JWT_ISSUER: z.url(), SESSION_SIGNING_SECRET: z.string().min(32) },
});
const config = parseConfig(Config);
process.stdout.write(`${JSON.stringify(config)}\n`);
