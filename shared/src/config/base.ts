import { type ServiceCatalog, type ServiceName, serviceCatalog } from "@flowstate/contracts/services/catalog";
import { z } from "zod";
import { DEFAULT_OUTBOX_LAG_INTERVAL_MS } from "../outbox/lag-metric.ts";

/** An optional URL variable; unset or empty means "use the real AWS endpoint". */
const optionalUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional();

/**
 * The variables every service shares (the README's "Configuration" table). A plain shape, so
 * a service can pick what it needs: `z.object({ ...baseEnv, IDENTITY_URL: z.url() })`.
 * EVENT_BUS_NAME stays optional here; `withDerivedDefaults` fills it. There is no shared assertion
 * key: each process reads its own keys per caller (`<prefix>/<stage>/keys/<pair>`, ADR 0014).
 */
export const baseEnv = {
  STAGE: z.enum(["dev", "prod"]).default("dev"),
  SERVICE_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,30}$/, "must be lower-case letters, digits and dashes")
    .default("flowstate"),
  HOST: z.string().min(1).default("127.0.0.1"),
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// URL"),
  AWS_ENDPOINT_URL: optionalUrl,
  MARKETPLACE_ENDPOINT_URL: optionalUrl,
  EVENT_BUS_NAME: z.string().min(1).optional(),
};

/**
 * The one way to read a boolean variable: `true`/`false`, `1`/`0` (case-insensitive); anything
 * else is a configuration error at boot, never silently false.
 *
 * @example
 * CONSUME_EVENTS: booleanVar(true)
 */
export const booleanVar = (fallback: boolean) =>
  z.stringbool({ truthy: ["true", "1"], falsy: ["false", "0"], case: "insensitive" }).default(fallback);

/** A listening port with the service's default; 0 asks the OS for a free one. */
export const portVar = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

type Named = {
  SERVICE_PREFIX: string;
  STAGE: string;
  EVENT_BUS_NAME?: string | undefined;
};

/**
 * Every resource name derived from the prefix and stage, derived here only: the services' config
 * defaults, the bootstrap and `npm start`'s environment all read them from this function.
 *
 * @example
 * derivedNames({ SERVICE_PREFIX: "flowstate", STAGE: "dev" }).signingKeysSecretId // "flowstate/dev/identity/signing-keys"
 */
export const derivedNames = (env: { SERVICE_PREFIX: string; STAGE: string }) => ({
  eventBus: `${env.SERVICE_PREFIX}-${env.STAGE}-domain`,
  signingKeysSecretId: `${env.SERVICE_PREFIX}/${env.STAGE}/identity/signing-keys`,
  signInThrottleSecretId: `${env.SERVICE_PREFIX}/${env.STAGE}/identity/sign-in-throttle-key`,
});

/** `<prefix>/<stage>/web-console/session-key`: the seller console's sealing key (the bootstrap creates it). */
export const sessionKeySecretId = (env: { SERVICE_PREFIX: string; STAGE: string }) =>
  `${env.SERVICE_PREFIX}/${env.STAGE}/web-console/session-key`;

/** Fills the defaults that depend on other variables: `<prefix>-<stage>-domain`. */
export function withDerivedDefaults<T extends Named>(env: T): T & { EVENT_BUS_NAME: string } {
  const names = derivedNames(env);
  return {
    ...env,
    EVENT_BUS_NAME: env.EVENT_BUS_NAME ?? names.eventBus,
  };
}

/**
 * The access-token issuer and audience: identity-svc signs with them and every verifier (the
 * gateways) checks them, so their defaults are defined once.
 */
export const accessTokenEnv = {
  JWT_ISSUER: z.string().min(1).default("https://identity.flowstate.local"),
  JWT_AUDIENCE: z.string().min(1).default("flowstate-api"),
};

/** A consumer's queue and DLQ names: `<prefix>-<stage>-<service>` and `…-dlq` (resolve URLs with GetQueueUrl). */
export const queueNames = (env: { SERVICE_PREFIX: string; STAGE: string }, service: string) => {
  const queue = `${env.SERVICE_PREFIX}-${env.STAGE}-${service}`;
  return { queue, dlq: `${queue}-dlq` };
};

type Empty = Record<never, never>;

/**
 * Fills EVENT_BUS_NAME from the prefix and stage and OUTBOX_LAG_METRIC_MS from NODE_ENV when unset, before
 * the schema parses (so the parsed type has them as plain strings, without a cast). With an invalid
 * prefix or stage the parse fails anyway, on that variable alone: the names filled meanwhile are
 * never seen.
 */
function fillDerivedNames(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const env: Record<string, unknown> = { ...raw };
  const prefix = baseEnv.SERVICE_PREFIX.safeParse(env.SERVICE_PREFIX);
  const stage = baseEnv.STAGE.safeParse(env.STAGE);
  const names = derivedNames({
    SERVICE_PREFIX: prefix.success ? prefix.data : "invalid",
    STAGE: stage.success ? stage.data : "invalid",
  });
  env.EVENT_BUS_NAME ??= names.eventBus;
  // The outbox-lag metric (shared/src/outbox/lag-metric.ts) is on wherever it is not asked off,
  // so production cannot forget it; a test run asks for it explicitly or gets none on its stdout.
  env.OUTBOX_LAG_METRIC_MS ??= env.NODE_ENV === "test" ? "0" : String(DEFAULT_OUTBOX_LAG_INTERVAL_MS);
  return env;
}

const commonShape = (defaultPort: number) => {
  const { DATABASE_URL: _, ...rest } = baseEnv;
  return {
    ...rest,
    PORT: portVar(defaultPort),
    EVENT_BUS_NAME: z.string().min(1),
  };
};
const withDerived = <S extends z.ZodRawShape>(shape: S) => z.preprocess(fillDerivedNames, z.object(shape));
const statelessSchema = <E extends z.ZodRawShape>(defaultPort: number, extra: E) =>
  withDerived({ ...commonShape(defaultPort), ...extra });
const databaseSchema = <E extends z.ZodRawShape>(defaultPort: number, extra: E) =>
  withDerived({
    ...commonShape(defaultPort),
    DATABASE_URL: baseEnv.DATABASE_URL,
    // 0: no outbox-lag line; the default is filled by fillDerivedNames (it depends on NODE_ENV).
    OUTBOX_LAG_METRIC_MS: z.coerce.number().int().min(0),
    ...extra,
  });

/** The schema `serviceConfigSchema` builds for service S: DATABASE_URL and the outbox variables only where S owns a schema. */
export type ServiceConfigSchema<
  S extends ServiceName,
  E extends z.ZodRawShape = Empty,
> = ServiceCatalog[S]["database"] extends false
  ? ReturnType<typeof statelessSchema<E>>
  : ReturnType<typeof databaseSchema<E>>;

/**
 * The usual service schema: the shared variables, PORT defaulting to the service's port in the
 * services catalog, DATABASE_URL where the catalog says the service owns a schema (the gateways
 * and the sandbox own none), the service's own variables, and the names derived from the prefix
 * and stage (`derivedNames`) when they are not set. The catalog is the one place a service's port
 * and database are written (contracts/src/services/catalog.ts).
 *
 * @example
 * const Config = serviceConfigSchema({ service: "identity-svc", extra: { JWT_ISSUER: z.url() } });
 * const config = parseConfig(Config); // config.PORT === 8081, config.EVENT_BUS_NAME === "flowstate-dev-domain" by default
 */
export function serviceConfigSchema<S extends ServiceName, E extends z.ZodRawShape = Empty>(options: {
  service: S;
  extra?: E;
}): ServiceConfigSchema<S, E> {
  const { port, database } = serviceCatalog[options.service];
  const extra = (options.extra ?? {}) as E;
  return (database ? databaseSchema(port, extra) : statelessSchema(port, extra)) as ServiceConfigSchema<S, E>;
}
