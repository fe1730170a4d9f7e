import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseConfig } from "@flowstate/shared/config/parse-config";
import { openDatabase } from "@flowstate/shared/db/open-database";
import { createLogger } from "@flowstate/shared/log/logger";
import { z } from "zod";
import { migrations } from "../db/migrations.ts";
import { importLegacy } from "./import-legacy.ts";

/**
 * `npm run import-legacy -w @flowstate/audit-svc -- <file.jsonl>`: imports the old audit log's
 * export (README "Legacy rows") as the schema's owner. Prints the report as JSON (counts, and the
 * numbers of refused lines with the reason); exits 1 when a line was refused.
 */
const Env = z.object({
  AUDIT_OWNER_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// URL"),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("audit"),
});
const env = parseConfig(Env);
const file = process.argv[2];
if (!file) {
  console.error("usage: import-legacy <file.jsonl>");
  process.exit(2);
}
const logger = createLogger({ service: "audit-svc", level: "warn" });
const orm = await openDatabase({
  url: env.AUDIT_OWNER_DATABASE_URL,
  schema: env.DATABASE_SCHEMA,
  entities: [],
  migrations,
  logger,
  pool: { max: 1 },
});
try {
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  const report = await importLegacy(orm.em.fork(), env.DATABASE_SCHEMA, lines);
  console.log(JSON.stringify(report));
  process.exitCode = report.rejected.length ? 1 : 0;
} finally {
  await orm.close();
}
