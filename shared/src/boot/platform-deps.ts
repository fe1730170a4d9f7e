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
  /** The process's keys per caller (keyring-loader.ts `startKeyring`, ADR 0014). */
  callerKeys: Keyring;
}

/**
 * The part of a database service's deps that every one of them has: the ORM, its schema (for
 * hand-written SQL), the logger and its keys per caller. The service adds its own clients and settings.
 *
 * @example
 * return { ...platformDeps(o), s3: o.aws.data("s3"), clock: () => new Date() };
 */
export function platformDeps(o: Pick<BootParts<unknown>, "orm" | "logger" | "callerKeys">): {
  orm: Database;
  schema: string;
  logger: Logger;
  callerKeys: Keyring;
} {
  return { orm: o.orm, schema: schemaOf(o.orm), logger: o.logger, callerKeys: o.callerKeys };
}
