import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { sentMail } from "@flowstate/privacy-svc/testing/aws-fixtures";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sendPersonMail } from "../src/delivery/send-person-mail.ts";
import type { NotifyDeps } from "../src/deps.ts";
import { startMailStack } from "./mail-stack.ts";

/**
 * Two workers (two replicas) and one offer-change e-mail whose lease ran out while the first
 * worker's batch was still on its way to it (a slow identity-svc lookup or SES send before it):
 * the second claims it again and sends it; the first, once it gets there, must not send it too.
 * The real identity-svc, SES on moto; the first worker's address lookup is held until the second
 * has sent.
 */
const mailFrom = "notify-lease@flowstate.test";
let stack: Awaited<ReturnType<typeof startMailStack>>;
beforeAll(async () => {
  stack = await startMailStack({ prefix: "lease", mailFrom });
  // This test is both workers: the harness's own would take the mail first.
  await stack.h.worker.stop();
});
afterAll(() => stack.close());

describe("an e-mail whose lease ran out mid-batch", () => {
  it("is sent once: by the worker that claimed it again, not also by the one it was taken from", async () => {
    const { h, identity } = stack;
    const user = await identity.signUp();
    const table = `"${h.db.schema}".person_mail`;
    const eventId = `evt_${randomBytes(10).toString("hex")}`;
    await h.db.orm.em
      .fork()
      .execute(`INSERT INTO ${table} (event_id, tenant_id, sub, type, body) VALUES (?, ?, ?, ?, ?)`, [
        eventId,
        "tnt_lease0000000",
        user.sub,
        "offer.released",
        JSON.stringify({ offer_id: "offer-lease" }),
      ]);

    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const atLookup = new Promise<void>((r) => {
      reached = r;
    });
    const slow: NotifyDeps = {
      ...h.deps,
      mailTarget: async (sub) => {
        reached();
        await held;
        return h.deps.mailTarget(sub);
      },
    };
    const first = sendPersonMail(slow);
    await atLookup;
    // The first worker's minute is up (what a slow batch does): the mail is due again.
    await h.db.orm.em
      .fork()
      .execute(`UPDATE ${table} SET next_attempt_at = now() - interval '1 second' WHERE event_id = ?`, [eventId]);
    assert.equal(await sendPersonMail(h.deps), 1, "the second worker claimed it");
    release();
    await first;

    const mails = (await sentMail(stack.mailEndpoint)).filter((m) => m.destinations.includes(user.email));
    assert.equal(mails.length, 1);
    const [row] = await h.db.orm.em
      .fork()
      .execute<{ outcome: string; attempts: number }[]>(`SELECT outcome, attempts FROM ${table} WHERE event_id = ?`, [
        eventId,
      ]);
    assert.deepEqual(row, { outcome: "sent", attempts: 2 });
  });
});
