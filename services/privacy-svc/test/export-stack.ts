import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { type Account, type E2E, startE2E } from "@flowstate/edge-gateway/testing/e2e-stack";
import { type Consumer, createConsumer } from "@flowstate/shared/consumer/consumer";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { createTestQueue, type TestQueue } from "@flowstate/shared/consumer/test-queue";
import { createLogger } from "@flowstate/shared/log/logger";
import { type OutboxRelay, startOutboxRelay } from "@flowstate/shared/outbox/relay";
import { createTestBus } from "@flowstate/shared/outbox/test-bus";
import { eventPattern } from "../../../deploy/local/definition.ts";
import { startMoto } from "../../../deploy/local/moto.ts";
import { privacyConsumer } from "../src/consumers/handlers.ts";
import type { PrivacyDeps } from "../src/deps.ts";
import { type SentMail, sentMail } from "../src/testing/aws-fixtures.ts";
import type { PrivacyHarness } from "../src/testing/harness.ts";

const run = promisify(execFile);

export interface ExportStack {
  e2e: E2E;
  privacy: PrivacyHarness;
  queue: TestQueue;
  consumer: Consumer;
  /** Polls the job through the gateway until `done(body)` holds. */
  poll(
    token: string,
    jobId: string,
    done: (body: { status: string }) => boolean,
    ms?: number,
  ): Promise<Record<string, unknown>>;
  /** The e-mails moto's SES accepted for one address. */
  mailTo(email: string): Promise<SentMail[]>;
  close(): Promise<void>;
}

/**
 * The export path end to end: identity-svc, privacy-svc and the gateway on real ports (edge-gateway's
 * e2e stack), both services' outbox relays publishing to an EventBridge bus of this test's own whose
 * rule carries privacy-svc's events (the bootstrap's pattern) into a queue, and privacy-svc's
 * consumer on that queue. Only ExportRequested, ExportCompleted and AccountDeleted travel, so the
 * moto cost stays at a few events per export.
 *
 * privacy-svc's AWS side (bucket, key, SES, bus, queue) lives in a moto_server of this stack's
 * own: the e-mails are read from moto's /moto-api/data.json, which serialises every model in the
 * emulator. On the suite's shared moto that is slow for everyone, and it fails outright once any
 * suite has created a CloudFormation stack (moto 5.2 re-evaluates the stack's outputs and raises
 * EntityAlreadyExists).
 */
export async function startExportStack(
  prefix: string,
  limits: Partial<PrivacyDeps["limits"]> = {},
): Promise<ExportStack> {
  const moto = await startMoto();
  const e2e = await startE2E(prefix, {}, undefined, { privacy: { limits, awsEndpoint: moto.endpoint } });
  const privacy = e2e.privacy!;
  const logger = createLogger({ service: "privacy-svc" });
  const sqs = privacy.aws.data("sqs");
  const eventBridge = privacy.aws.data("eventbridge");
  const queue = await createTestQueue(sqs, { prefix, visibilityTimeout: 30, maxReceiveCount: 5 });
  const bus = await createTestBus(eventBridge, queue.queueArn, eventPattern(serviceCatalog["privacy-svc"].consumes));
  const relays: OutboxRelay[] = [e2e.identity.db.orm, privacy.db.orm].map((orm) =>
    startOutboxRelay({ orm, eventBridge, busName: bus.busName, logger, pollIntervalMs: 200 }),
  );
  const consumer = createConsumer({
    sqs,
    queueUrl: queue.queueUrl,
    orm: privacy.db.orm,
    logger,
    definition: privacyConsumer,
    deps: privacy.deps,
    waitTimeSeconds: 1,
  }).start();
  const endpoint = moto.endpoint;
  return {
    e2e,
    privacy,
    queue,
    consumer,
    async poll(token, jobId, done, ms = 60_000) {
      let last: Record<string, unknown> = {};
      const seen: string[] = [];
      await waitFor(
        async () => {
          const res = await e2e.call("GET", `/v1/users/me/export/${jobId}`, { token });
          last = res.json;
          const state = `${res.status}:${String(res.json.status ?? res.json.code)}`;
          if (!seen.at(-1)?.startsWith(`${state}@`)) seen.push(`${state}@${Date.now() % 100000}`);
          return res.status === 200 && done(res.json);
        },
        ms,
        () => `export ${jobId}; last answer: ${JSON.stringify(last)}; answers: ${seen.join(" ")}`,
        100,
      );
      return last;
    },
    async mailTo(email) {
      return (await sentMail(endpoint)).filter((m) => m.destinations.includes(email));
    },
    async close() {
      await consumer.stop({ deadlineMs: 2_000 });
      await Promise.all(relays.map((r) => r.stop()));
      await bus.delete();
      await queue.delete();
      await e2e.close();
      await moto.stop();
    },
  };
}

/** Unzips with Info-ZIP (an implementation independent of ours): `unzip -t` must pass, then each file's text. */
export async function unzipAll(bytes: Uint8Array): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), "export-"));
  try {
    const file = join(dir, "export.zip");
    await writeFile(file, bytes);
    await run("unzip", ["-tq", file]);
    const names = (await run("unzip", ["-Z1", file])).stdout.split("\n").filter(Boolean);
    const out: Record<string, string> = {};
    for (const name of names) out[name] = (await run("unzip", ["-p", file, name], { maxBuffer: 64 << 20 })).stdout;
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type { Account };
