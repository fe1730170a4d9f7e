import type { z } from "zod";

/** Variable names whose values are never printed: secrets, and URLs that may embed credentials. */
const SECRET_LOOKING = /SECRET|PASSW|TOKEN|KEY|CREDENTIAL|PRIVATE|AUTH|SESSION|COOKIE|SIGNING|_URL$|DSN/i;

export type ConfigCheck<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Validates an environment against a schema without side effects; one line per problem,
 * `NAME: what is wrong`. Empty strings count as unset, because compose files and shells produce
 * `FOO=` when they mean "no value".
 *
 * @example
 * checkConfig(Config, { PORT: "eighty" }) // { ok: false, problems: ["PORT: Invalid input: expected number, received NaN (got \"eighty\")"] }
 */
export function checkConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): ConfigCheck<z.output<S>> {
  const input: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== "") input[name] = value;
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.length ? issue.path.map(String).join(".") : "(configuration)";
    const raw = typeof issue.path[0] === "string" ? input[issue.path[0]] : undefined;
    if (raw === undefined && issue.code === "invalid_type") return `${name}: is required but not set`;
    // Only values of harmless-looking variables are shown, truncated: enough to spot a typo.
    const shown = raw !== undefined && !SECRET_LOOKING.test(name) ? ` (got ${JSON.stringify(raw.slice(0, 40))})` : "";
    return `${name}: ${issue.message}${shown}`;
  });
  return { ok: false, problems };
}

/**
 * Parses the process configuration once, at boot. On failure it prints one line per bad variable
 * to stderr and exits with code 1, so a misconfigured process never starts half-working.
 *
 * @example
 * const Config = serviceConfigSchema({ service: "identity-svc", extra: { JWT_ISSUER: z.url() } });
 * export const config = parseConfig(Config);
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const checked = checkConfig(schema, env);
  if (checked.ok) return checked.value;
  process.stderr.write(
    `Invalid configuration (${checked.problems.length} problem${checked.problems.length === 1 ? "" : "s"}):\n` +
      checked.problems.map((line) => `  ${line}\n`).join(""),
  );
  process.exit(1);
}
