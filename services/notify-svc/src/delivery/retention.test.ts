import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type NotifyHarness, startNotifySvc } from "../testing/harness.ts";
import { pruneLog } from "./retention.ts";

let h: NotifyHarness;
beforeAll(async () => {
  h = await startNotifySvc({ prefix: "retention" });
});
afterAll(() => h.close());

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  h.db.orm.em.fork().execute<T[]>(query.replaceAll("$s", `"${h.db.schema}"`), params);

describe("the delivery log's retention", () => {
  it("drops finished deliveries, their messages and done mails after 30 days, keeps newer and pending ones", async () => {
    const t = `tnt_${randomBytes(8).toString("hex")}`;
    const endpoint = JSON.parse(
      await (
        await h.call("POST", `/v1/tenants/${t}/notifications/endpoints`, {
          as: { kind: "user", sub: "usr_0123456789ab", sid: "ses_0123456789ab" },
          body: { url: "http://127.0.0.1:9/h" },
        })
      ).text(),
    ) as { id: string };
    const [old, fresh] = [await h.seedDelivery(t, endpoint.id), await h.seedDelivery(t, endpoint.id)];
    await sql("UPDATE $s.delivery SET created_at = now() - interval '31 days' WHERE id = ?", [old]);
    await sql(
      "UPDATE $s.message SET created_at = now() - interval '31 days' WHERE id = (SELECT message_id FROM $s.delivery WHERE id = ?)",
      [old],
    );
    await sql(
      `INSERT INTO $s.person_mail (event_id, tenant_id, sub, type, body, outcome, done_at)
       VALUES ('evt_old0000000', ?, 'usr_0123456789ab', 'offer.released', '{}', 'sent', now() - interval '31 days'),
              ('evt_new0000000', ?, 'usr_0123456789ab', 'offer.released', '{}', NULL, NULL)`,
      [t, t],
    );
    await pruneLog(h.deps);
    const left = (await sql<{ id: string }>("SELECT id FROM $s.delivery WHERE tenant_id = ?", [t])).map((r) => r.id);
    assert.deepEqual(left, [fresh]);
    assert.equal((await sql("SELECT 1 FROM $s.message WHERE tenant_id = ?", [t])).length, 1);
    const mails = (await sql<{ event_id: string }>("SELECT event_id FROM $s.person_mail WHERE tenant_id = ?", [t])).map(
      (r) => r.event_id,
    );
    assert.deepEqual(mails, ["evt_new0000000"]);
  });
});
