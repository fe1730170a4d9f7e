import { baseEnv } from "@flowstate/shared/config/base";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { z } from "zod";

/**
 * The part of the runtime environment contract the bootstrap reads: the same names, rules and
 * defaults as every service (shared/src/config/base.ts), plus the SES sender.
 */
export const StackEnv = z.object({
  STAGE: baseEnv.STAGE,
  SERVICE_PREFIX: baseEnv.SERVICE_PREFIX,
  AWS_ENDPOINT_URL: baseEnv.AWS_ENDPOINT_URL,
  MAIL_FROM: z.email().default("no-reply@flowstate.local"),
});

export interface StackSettingsFromEnv {
  prefix: string;
  stage: string;
  mailFrom: string;
  endpoint: string | undefined;
}

/** Reads the bootstrap's settings; exits naming every bad variable, like a service at boot. */
export function readStackSettings(env: NodeJS.ProcessEnv = process.env): StackSettingsFromEnv {
  const e = parseConfig(StackEnv, env);
  return { prefix: e.SERVICE_PREFIX, stage: e.STAGE, mailFrom: e.MAIL_FROM, endpoint: e.AWS_ENDPOINT_URL };
}
