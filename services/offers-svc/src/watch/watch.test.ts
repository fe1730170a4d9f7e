import assert from "node:assert/strict";
import type { AgreementList } from "@flowstate/contracts/rest/offers/agreements";
import { waitFor } from "@flowstate/shared/consumer/test-events";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  answer,
  connectedTenant,
  type Harness,
  outboxEvents,
  readAgreements,
  startHarness,
  type TestTenant,
} from "../testing/harness.ts";
import { marketplace } from "../testing/offer-fixtures.ts";
import { claimDueWatches } from "./claim.ts";
import { enrollWatch } from "./forget-watch.ts";
import { pollTenant } from "./poll-tenant.ts";

const INTERVAL_MS = 1000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: "offers_watch", watchIntervalMs: INTERVAL_MS });
});
afterAll(() => h.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const send = (url: string, method: string, body: unknown) =>
  fetch(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const account = async (control: string) =>
  (await (await fetch(control)).json()) as { offers: { id: string; state: string }[]; calls: Record<string, number> };
const calls = async (control: string, op: string) => (await account(control)).calls[op] ?? 0;
const read = (t: TestTenant, query = "") => readAgreements(h, t, query);
const list = async (t: TestTenant, query = "") => answer<AgreementList>(await read(t, query), 200);
const agreementEvents = async (tenantId: string) =>
  (await outboxEvents(h, tenantId)).filter((e) => e.event_key.startsWith("PurchaseAgreement"));

describe("the agreement watch", () => {
  it("records an agreement a buyer makes and a status AWS changes, one event each across repeated polls and a restart", async () => {
    const { t, seller } = await connectedTenant(h);
    const first = await list(t);
    assert.equal(first.agreements.length, 6, "the seeded agreements, read at the first list");
    assert.ok(Date.parse(first.synced_at) <= Date.now());
    assert.deepEqual(await agreementEvents(t.id), [], "what existed before watching began is no news");

    const offer = (await account(seller.control)).offers.find((o) => o.state === "Released");
    const made = (await (await send(`${seller.control}/agreements`, "POST", { offerId: offer?.id })).json()) as {
      id: string;
    };
    const seen = await waitFor(
      async () => (await list(t)).agreements.find((a) => a.agreement_id === made.id),
      10 * INTERVAL_MS,
      "the new agreement recorded",
    );
    assert.equal(seen.status, "active");
    assert.equal(seen.offer_id, offer?.id);

    await send(`${seller.control}/agreements/${made.id}`, "PUT", { status: "CANCELLED" });
    await waitFor(
      async () => (await list(t, "?status=cancelled")).agreements.some((a) => a.agreement_id === made.id),
      10 * INTERVAL_MS,
      "the change recorded",
    );
    await sleep(3 * INTERVAL_MS);
    await h.restartWatch();
    await sleep(3 * INTERVAL_MS);

    const events = await agreementEvents(t.id);
    assert.deepEqual(
      events.map((e) => e.event_key),
      ["PurchaseAgreementCreated.v1", "PurchaseAgreementChanged.v1"],
    );
    assert.deepEqual(events[0]?.envelope.actor, { kind: "system", service: "offers-svc" });
    assert.equal(events[0]?.envelope.data["agreement_id"], made.id);
    assert.equal(events[0]?.envelope.data["status"], "active");
    assert.equal(events[1]?.envelope.data["previous_status"], "active");
    assert.equal(events[1]?.envelope.data["status"], "cancelled");
    assert.deepEqual(events[1]?.envelope.data["changed"], ["status"]);
    assert.doesNotMatch(JSON.stringify(events), /@/, "ids and states, no e-mail address");
  });

  it("calls SearchAgreements at most once per interval per tenant and AssumeRole once per credential lifetime", async () => {
    const tenants = [await connectedTenant(h), await connectedTenant(h)];
    const before = await Promise.all(tenants.map(async ({ seller }) => calls(seller.control, "AssumeRole")));
    for (const { t } of tenants) await list(t);
    const start = await Promise.all(tenants.map(async ({ seller }) => calls(seller.control, "SearchAgreements")));
    const began = Date.now();
    for (let i = 0; i < 10; i++) {
      for (const { t } of tenants) await list(t); // reads come from the record: no call of their own
      await sleep(INTERVAL_MS / 2);
    }
    const intervals = (Date.now() - began) / INTERVAL_MS;
    for (const [i, { seller }] of tenants.entries()) {
      const searched = (await calls(seller.control, "SearchAgreements")) - (start[i] ?? 0);
      assert.ok(searched <= Math.ceil(intervals) + 1, `${searched} searches in ${intervals.toFixed(1)} intervals`);
      assert.ok(searched >= Math.floor(intervals) - 2, `still polled: ${searched} in ${intervals.toFixed(1)}`);
      assert.equal((await calls(seller.control, "AssumeRole")) - (before[i] ?? 0), 1, "one AssumeRole");
    }
  });

  it("assumes the role again only when the session's credentials expire (one AssumeRole per lifetime)", async () => {
    const { t, seller } = await connectedTenant(h);
    const before = await calls(seller.control, "AssumeRole");
    await list(t);
    await sleep(3 * INTERVAL_MS);
    assert.equal((await calls(seller.control, "AssumeRole")) - before, 1, "one session while it lasts");
    // The seller's clock passes the session's hour: AWS answers ExpiredToken, the session is renewed once.
    await send(`${seller.control}/clock`, "PUT", { advanceSeconds: 3700 });
    const searched = await calls(seller.control, "SearchAgreements");
    await waitFor(
      async () => (await calls(seller.control, "SearchAgreements")) >= searched + 3,
      10 * INTERVAL_MS,
      "polls after the expiry",
    );
    assert.equal((await calls(seller.control, "AssumeRole")) - before, 2, "renewed once, then reused");
  });

  it("backs off while AWS throttles, serves the recorded agreements meanwhile, and catches up after", async () => {
    const { t, seller } = await connectedTenant(h);
    const synced = (await list(t)).synced_at;
    await send(`${seller.control}/faults`, "PUT", { faults: [{ kind: "throttle", operations: ["SearchAgreements"] }] });
    const start = await calls(seller.control, "SearchAgreements");
    await sleep(7 * INTERVAL_MS);
    const throttled = (await calls(seller.control, "SearchAgreements")) - start;
    // Without backoff: 7 polls of up to 3 attempts each (the SDK's retries), up to 21 calls. With it:
    // polls 2 and 4 intervals apart, so at most 3 polls (fewer when the machine is loaded).
    assert.ok(throttled >= 1 && throttled <= 9, `${throttled} throttled calls in 7 intervals`);
    const during = await list(t);
    assert.equal(during.agreements.length, 6, "the recorded agreements meanwhile");
    assert.equal(during.synced_at, synced, "with the time they were read");
    const [row] = await h.db.orm.em
      .fork()
      .execute<{ last_failure: string; poll_errors: number }[]>(
        `SELECT last_failure, poll_errors FROM "${h.db.schema}".agreement_watch WHERE tenant_id = ?`,
        [t.id],
      );
    assert.equal(row?.last_failure, "unavailable");
    assert.ok((row?.poll_errors ?? 0) >= 1 && (row?.poll_errors ?? 0) <= 3, `${row?.poll_errors} failed polls`);

    await fetch(`${seller.control}/faults`, { method: "DELETE" });
    // The next poll is at most 16 intervals after the last throttled one (3 failures in a row).
    await waitFor(async () => (await list(t)).synced_at > synced, 30 * INTERVAL_MS, "read again after the throttling");
  });

  it("reads a seller with more than a page one page per interval, the whole first pass silent", async () => {
    const { t, seller } = await connectedTenant(h);
    const offer = (await account(seller.control)).offers.find((o) => o.state === "Released");
    for (let i = 0; i < 45; i++) await send(`${seller.control}/agreements`, "POST", { offerId: offer?.id });
    const recorded = async () =>
      Number(
        (
          await h.db.orm.em
            .fork()
            .execute<{ n: string }[]>(`SELECT count(*) AS n FROM "${h.db.schema}".agreement WHERE tenant_id = ?`, [
              t.id,
            ])
        )[0]?.n,
      );
    await list(t);
    assert.equal(await recorded(), 50, "the first page only");
    await waitFor(async () => (await recorded()) === 51, 10 * INTERVAL_MS, "the second page at the next interval");
    const made = (await (await send(`${seller.control}/agreements`, "POST", { offerId: offer?.id })).json()) as {
      id: string;
    };
    await waitFor(async () => (await recorded()) === 52, 10 * INTERVAL_MS, "the new one within a pass");
    const events = await agreementEvents(t.id);
    assert.deepEqual(
      events.map((e) => [e.event_key, e.envelope.data["agreement_id"]]),
      [["PurchaseAgreementCreated.v1", made.id]],
      "the 51 that existed before are no news; the new one is, once",
    );
  });

  it("pages the recorded agreements by cursor in AWS's order and refuses a cursor it did not give out", async () => {
    const { t } = await connectedTenant(h);
    const all = (await list(t)).agreements;
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(t, `?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      paged.push(...page.agreements.map((a) => a.agreement_id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(
      paged,
      all.map((a) => a.agreement_id),
    );
    assert.equal(all[0]?.end_time, undefined, "pay-as-you-go (no end) first, then latest end first");
    const ends = all.slice(1).map((a) => Date.parse(a.end_time ?? ""));
    assert.deepEqual(
      ends,
      [...ends].sort((a, b) => b - a),
    );
    const bad = await h.call("GET", `${marketplace(t.id, "agreements")}?cursor=WyJ4Il0`, {
      as: t.member,
      role: "member",
    });
    assert.equal((await answer<{ code: string }>(bad, 400)).code, "INVALID_CURSOR");
  });

  it("stops watching a tenant found disconnected, which reads 409 like any marketplace call", async () => {
    const { t, seller } = await connectedTenant(h);
    await list(t);
    h.sellers.disconnect(t.id);
    await waitFor(
      async () =>
        !(
          await h.db.orm.em.fork().execute(`SELECT 1 FROM "${h.db.schema}".agreement_watch WHERE tenant_id = ?`, [t.id])
        ).length,
      10 * INTERVAL_MS,
      "the watch row gone",
    );
    const after = await calls(seller.control, "SearchAgreements");
    await sleep(3 * INTERVAL_MS);
    assert.equal(await calls(seller.control, "SearchAgreements"), after, "not polled any more");
    const res = await read(t);
    assert.equal((await answer<{ code: string }>(res, 409)).code, "CONNECTOR_NOT_CONNECTED");
  });

  it("watches tenants connected before it started (backfill from the connector list), without a read", async () => {
    // Connected while no ConnectorConnected reached this service and never read: no watch row.
    const { t, seller } = await connectedTenant(h);
    const watched = async () =>
      (
        await h.db.orm.em
          .fork()
          .execute<{ baseline_done: boolean }[]>(
            `SELECT baseline_done FROM "${h.db.schema}".agreement_watch WHERE tenant_id = ?`,
            [t.id],
          )
      )[0];
    await sleep(2 * INTERVAL_MS);
    assert.equal(await watched(), undefined, "not watched before the backfill");
    assert.equal(await calls(seller.control, "SearchAgreements"), 0);

    await h.restartWatch(); // a (re)start enrolls every connected tenant it has no row for
    await waitFor(async () => (await watched())?.baseline_done, 10 * INTERVAL_MS, "the silent first pass");
    assert.deepEqual(await agreementEvents(t.id), [], "what existed before watching began is no news");

    const offer = (await account(seller.control)).offers.find((o) => o.state === "Released");
    const made = (await (await send(`${seller.control}/agreements`, "POST", { offerId: offer?.id })).json()) as {
      id: string;
    };
    const created = await waitFor(
      async () => (await agreementEvents(t.id)).find((e) => e.event_key === "PurchaseAgreementCreated.v1"),
      10 * INTERVAL_MS,
      "the new agreement's event, with no read of the list",
    );
    assert.equal(created.envelope.data["agreement_id"], made.id);

    // Another start leaves a watched tenant's row (and its baseline) as it is: no second first pass.
    await h.restartWatch();
    await sleep(3 * INTERVAL_MS);
    assert.deepEqual(
      (await agreementEvents(t.id)).map((e) => e.event_key),
      ["PurchaseAgreementCreated.v1"],
    );
  });

  it("answers a first read during the watch's first pass with that pass's outcome: its rows, or its failure at once", async () => {
    // The watch holds the tenant's first pass (enrolled and claimed, as a replica does right after a
    // connect) and finishes it 600 ms later; the read cannot claim it and waits for it.
    const watchHoldsFirstPass = async (tenantId: string) => {
      await h.deps.orm.em.fork().transactional((em) => enrollWatch(em, h.deps, tenantId, false));
      const [claimed] = await claimDueWatches(h.deps, 1, tenantId);
      return () => (claimed ? sleep(600).then(() => pollTenant(h.deps, claimed)) : Promise.resolve());
    };
    const once = (t: TestTenant) => h.call("GET", marketplace(t.id, "agreements"), { as: t.member, role: "member" });

    const ok = await connectedTenant(h);
    const finishOk = await watchHoldsFirstPass(ok.t.id);
    const [first] = await Promise.all([once(ok.t), finishOk()]);
    const listed = await answer<AgreementList>(first, 200);
    assert.equal(listed.agreements.length, 6);
    assert.ok(listed.synced_at);

    // A pass that fails ends the wait with its failure (a persistent fault stays a 503 with
    // Retry-After, not a late 200), long before the wait's 5 s.
    const failing = await connectedTenant(h);
    await send(`${failing.seller.control}/faults`, "PUT", {
      faults: [{ kind: "error", operations: ["SearchAgreements"] }],
    });
    const finishFailed = await watchHoldsFirstPass(failing.t.id);
    const started = Date.now();
    const [refused] = await Promise.all([once(failing.t), finishFailed()]);
    assert.equal((await answer<{ code: string }>(refused, 503)).code, "UPSTREAM_UNAVAILABLE");
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.ok(Date.now() - started < 4_500, `answered after ${Date.now() - started} ms`);
  });
});
