import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { CreateSecretCommand } from "@aws-sdk/client-secrets-manager";
import { keyPairsOf } from "@flowstate/contracts/internal/key-pairs";
import { pairSecretAt } from "@flowstate/shared/auth/keyring";
import { keyPairSecretName } from "@flowstate/shared/boot/keyring-loader";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { nodeBinary } from "@flowstate/shared/testing/node-binary";
import { afterAll, beforeAll, describe, test } from "vitest";
import { freePort } from "../../../deploy/local/ports.ts";
import { recordedBatches } from "../src/archive/batch-store.ts";
import { ARCHIVE_PREFIX } from "../src/archive/keys.ts";
import { verifyArchive } from "../src/archive/verify.ts";
import { type AuditHarness, startAuditHarness } from "../src/testing/harness.ts";
import { startKillingProxy } from "./archive-crash-proxy.ts";
import { createLockedArchiveBucket } from "./archive-fixtures.ts";
import { archivedRows, batchRows, liveRowIds, recordRows } from "./archive-helpers.ts";

const main = join(import.meta.dirname, "..", "src", "main.ts");

let h: AuditHarness;
let bucket: string;
let proxy: Awaited<ReturnType<typeof startKillingProxy>>;
/** A deployment of its own: audit-svc reads its key pairs under `<prefix>/dev/keys/` (ADR 0014). */
const prefix = `tcrash${randomBytes(4).toString("hex")}`;
const children: ChildProcess[] = [];

beforeAll(async () => {
  h = await startAuditHarness({ prefix: "archive_crash" });
  bucket = await createLockedArchiveBucket(h.aws);
  // The pairs audit-svc holds, as the bootstrap derives them from a master (deploy/local/apply/key-pairs.ts).
  const master = randomBytes(32).toString("base64url");
  for (const pair of keyPairsOf("audit-svc"))
    await h.aws.data("secretsmanager").send(
      new CreateSecretCommand({
        Name: keyPairSecretName(prefix, "dev", pair.id),
        SecretString: JSON.stringify(pairSecretAt(master, pair.id, 1)),
      }),
    );
  proxy = await startKillingProxy(process.env.AWS_ENDPOINT_URL!);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await proxy?.close();
  await h?.close();
});

/** The real audit-svc (src/main.ts) as a child process, archiving every second through the proxy. */
async function startAuditSvc(): Promise<ChildProcess> {
  const child = spawn(nodeBinary, [main], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      SERVICE_PREFIX: prefix,
      STAGE: "dev",
      // The harness's schema, migrated by its owner role; the child connects as the insert-only role.
      DATABASE_URL: h.urls.service,
      DATABASE_SCHEMA: h.schema,
      AWS_ENDPOINT_URL: proxy.endpoint,
      AUDIT_ARCHIVE_BUCKET: bucket,
      AUDIT_ARCHIVE_BATCH_MAX_ROWS: "3",
      AUDIT_ARCHIVE_INTERVAL_SECONDS: "1",
      CONSUME_EVENTS: "false",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}
const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.once("exit", (code, signal) => resolve(signal ?? code));
  });

describe("audit-svc killed between writing an archive object and marking it", () => {
  test("after a restart the archive holds each row exactly once", async () => {
    await recordRows(h, 5);

    const first = await startAuditSvc();
    const killedAt = await proxy.arm(first, `/${ARCHIVE_PREFIX}/`);
    assert.equal(await exited(first), "SIGKILL");
    const s3 = h.aws.data("s3");
    const objects = (await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? [];
    assert.deepEqual(
      objects.map((o) => `/${bucket}/${o.Key}`),
      [killedAt],
      "S3 holds the object the killed process wrote",
    );
    assert.equal((await batchRows(h)).length, 0, "and the database never marked it");

    // Rows keep arriving while the service is down: rebuilt now, batch 1 would differ.
    await recordRows(h, 3);
    const live = await liveRowIds(h);

    const second = await startAuditSvc();
    await waitFor(
      async () => (await batchRows(h)).reduce((n, b) => n + b.row_count, 0) === live.length,
      120_000,
      "the restarted service archives the rest",
    );
    second.kill("SIGTERM");
    assert.equal(await exited(second), 0);

    const archived = (await archivedRows(s3, bucket, ARCHIVE_PREFIX)).map((r) => String(r.id));
    assert.deepEqual(archived, live, "each row once, none missing");
    const batches = await batchRows(h);
    assert.equal(`/${bucket}/${batches[0]!.object_key}`, killedAt, "batch 1 is the object written before the kill");
    const result = await verifyArchive({
      s3,
      bucket,
      prefix: ARCHIVE_PREFIX,
      recorded: await h.inTransaction((em) => recordedBatches(em, h.schema)),
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.ok && result.rows, 8);

    // The operator's command says the same, checking every manifest against the database's records.
    const cli = spawnSync(
      nodeBinary,
      [join(import.meta.dirname, "..", "src", "archive", "verify-cli.ts"), "--records"],
      {
        env: { ...process.env, AUDIT_ARCHIVE_BUCKET: bucket, DATABASE_URL: h.urls.service, DATABASE_SCHEMA: h.schema },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    assert.equal(cli.status, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /archive intact: 3 objects, 8 rows/);
  }, 300_000);
});
