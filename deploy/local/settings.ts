import { z } from "zod";

/** The part of the runtime environment contract the bootstrap reads (same names and defaults as the services). */
const StackEnv = z.object({
  STAGE: z.enum(["dev", "prod"]).default("dev"),
  // Lower-case because it becomes part of S3 bucket names.
  SERVICE_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,19}$/, "lower-case letters, digits and dashes, at most 20")
    .default("flowstate"),
  AWS_ENDPOINT_URL: z.url().optional(),
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
  const parsed = StackEnv.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`bad configuration: ${issue.path.join(".")}: ${issue.message}`);
    process.exit(1);
  }
  const e = parsed.data;
  return { prefix: e.SERVICE_PREFIX, stage: e.STAGE, mailFrom: e.MAIL_FROM, endpoint: e.AWS_ENDPOINT_URL };
}
