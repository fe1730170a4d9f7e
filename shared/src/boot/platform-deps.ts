import type { Keyring } from "../auth/keyring.ts";
import type { AwsClients } from "../aws/clients.ts";
import { type Database, schemaOf } from "../db/open-database.ts";
import type { Logger } from "../log/logger.ts";

/** What main.ts hands a service's `buildDeps`: its parsed configuration and what it built at boot. */
export interface BootParts<C> {
  config: C;
  orm: Database;
  logger: Logger;
  aws: AwsClients;
  /** The assertion key (`readSecretString`). */
  internalAuthSecret: string;
  /** The process's keys per caller (keyring-loader.ts, ADR 0014), for the services moved to them. */
  callerKeys?: Keyring | undefined;
}

/**
 * The part of a database service's deps that every one of them has: the ORM, its schema (for
 * hand-written SQL), the logger and the assertion key. The service adds its own clients and settings.
 *
 * @example
 * return { ...platformDeps(o), s3: o.aws.data("s3"), clock: () => new Date() };
 */
export function platformDeps(o: Pick<BootParts<unknown>, "orm" | "logger" | "internalAuthSecret" | "callerKeys">): {
  orm: Database;
  schema: string;
  logger: Logger;
  internalAuthSecret: string;
  callerKeys?: Keyring | undefined;
} {
  const deps = { orm: o.orm, schema: schemaOf(o.orm), logger: o.logger, internalAuthSecret: o.internalAuthSecret };
  return o.callerKeys ? { ...deps, callerKeys: o.callerKeys } : deps;
}
