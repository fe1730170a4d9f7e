/**
 * `npm run audit:verify` (root) or `npm run verify` (services/audit-svc): walks the audit archive in
 * sequence order, recomputes every hash, checks the chain and the row-id continuity, and prints the
 * first break, naming the object. Exit code 0 when intact, 1 at a break, 2 on a usage error.
 *
 *   AUDIT_ARCHIVE_BUCKET=<bucket> npm run audit:verify [-- --prefix audit-events] [-- --records]
 *
 * `--bucket` overrides AUDIT_ARCHIVE_BUCKET; AWS_ENDPOINT_URL selects a local emulator. With
 * `--records`, the manifest hashes the database recorded when each batch was archived
 * (DATABASE_URL, schema DATABASE_SCHEMA or `audit`) are checked too: they name a consistently
 * rewritten last object and a missing tail, which the chain alone cannot.
 */
import { parseArgs } from "node:util";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { withConnection } from "../db/roles.ts";
import { recordedBatches } from "./batch-store.ts";
import { ARCHIVE_PREFIX } from "./keys.ts";
import { verifyArchive } from "./verify.ts";

const { values } = parseArgs({
  options: {
    bucket: { type: "string" },
    prefix: { type: "string", default: ARCHIVE_PREFIX },
    records: { type: "boolean", default: false },
  },
});
const bucket = values.bucket ?? process.env.AUDIT_ARCHIVE_BUCKET;
if (!bucket) {
  console.error("usage: audit:verify --bucket <archive bucket> (or AUDIT_ARCHIVE_BUCKET) [--prefix p] [--records]");
  process.exit(2);
}
let recorded: Awaited<ReturnType<typeof recordedBatches>> | undefined;
if (values.records) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("--records needs DATABASE_URL");
    process.exit(2);
  }
  const schema = process.env.DATABASE_SCHEMA ?? "audit";
  recorded = await withConnection(url, (em) => recordedBatches(em, schema));
}

const s3 = createAwsClients({ endpoint: process.env.AWS_ENDPOINT_URL }).data("s3");
const result = await verifyArchive({ s3, bucket, prefix: values.prefix, ...(recorded ? { recorded } : {}) });
if (result.ok) {
  console.log(
    `archive intact: ${result.objects} objects, ${result.rows} rows, up to row id ${result.lastId}, head ${result.headSha256}`,
  );
  process.exit(0);
}
const b = result.break;
console.log(`archive BROKEN at ${b.key} (seq ${b.seq ?? "?"}): ${b.reason}: ${b.detail}`);
console.log(`${result.objectsVerified} object(s) before it verified`);
process.exit(1);
