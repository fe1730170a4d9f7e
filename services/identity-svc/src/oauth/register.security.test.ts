import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { ServiceContext } from "../context.ts";
import { type Harness, startHarness } from "../testing/harness.ts";
import { forgetUnusedClients } from "./clients/forget-unused-clients.ts";
import { oauthDriver } from "./testing/oauth-driver.ts";

/**
 * Issue 20 finding 8: one address registered 79 clients in 5 s, each up to 24 KB, never deleted,
 * and `client_name: "Flowstate"` was accepted. Registration is limited per client address (the
 * address the edge gateway forwards), metadata is capped, clients never used for a token expire
 * after a day, and names that read as Flowstate are refused.
 */
let h: Harness;
let oauth: ReturnType<typeof oauthDriver>;
let offsetMs = 0;
const REDIRECT = "http://127.0.0.1/callback";
beforeAll(async () => {
  h = await startHarness({
    prefix: "id_oauth_register",
    clock: () => new Date(Date.now() + offsetMs),
    oauthRegistrationsPerHour: 10,
  });
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

let nextAddress = 1;
const freshAddress = () => `203.0.113.${nextAddress++}`;
const register = (body: unknown, from = freshAddress()) =>
  h.call("POST", "/oauth/register", { body, headers: { "x-forwarded-for": from } });
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe("dynamic registration limits", () => {
  it("allows ten registrations an hour per client address, then answers 429 with Retry-After", async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i++) {
      const res = await register({ client_name: `App ${i}`, redirect_uris: [REDIRECT] }, address);
      assert.equal(res.status, 201, `registration ${i + 1}`);
    }
    const refused = await register({ client_name: "App 11", redirect_uris: [REDIRECT] }, address);
    assert.equal(refused.status, 429);
    assert.equal(await errorOf(refused), "temporarily_unavailable");
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    // Another address is not held by this one.
    assert.equal((await register({ redirect_uris: [REDIRECT] })).status, 201);
    // An hour later the address may register again.
    offsetMs += 3600_000 + 1000;
    assert.equal((await register({ redirect_uris: [REDIRECT] }, address)).status, 201);
  });

  it("counts a parallel burst exactly: ten of fifteen at once get through", async () => {
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => register({ redirect_uris: [REDIRECT] }, address)),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(10).fill(201), ...Array(5).fill(429)]);
  });

  it("refuses metadata over 4 KB and fields over their caps as invalid_client_metadata", async () => {
    const big = await register({ redirect_uris: [REDIRECT], software_statement_padding: "x".repeat(4100) });
    assert.equal(big.status, 400);
    assert.equal(await errorOf(big), "invalid_client_metadata");
    for (const body of [
      { redirect_uris: [`https://app.example/${"a".repeat(600)}`] },
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1/cb${i}`) },
      { redirect_uris: [REDIRECT], client_uri: `https://app.example/${"a".repeat(600)}` },
      { redirect_uris: [REDIRECT], software_version: "1".repeat(60) },
    ]) {
      const res = await register(body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(await errorOf(res), /^invalid_(client_metadata|redirect_uri)$/);
    }
  });

  it("refuses client names that read as Flowstate, however written", async () => {
    for (const name of [
      "Flowstate",
      " flowstate ",
      "FLOWSTATE Connector",
      "Flow State",
      "F l o w s t a t e",
      "Fl0wstate",
      "F1owstate",
      "Ｆｌｏｗｓｔａｔｅ", // fullwidth
      "Flоwstate", // Cyrillic о
      "Flöwstäte",
      "flow-state official",
    ]) {
      const res = await register({ client_name: name, redirect_uris: [REDIRECT] });
      assert.equal(res.status, 400, name);
      assert.equal(await errorOf(res), "invalid_client_metadata", name);
    }
    assert.equal((await register({ client_name: "Flow Manager", redirect_uris: [REDIRECT] })).status, 201);
  });

  it("deletes a client never used for a token a day after its registration, and keeps used ones", async () => {
    const user = await h.signUp();
    const unused = await oauth.register([REDIRECT]);
    const used = await oauth.register([REDIRECT]);
    await oauth.tokens(user, used, REDIRECT, { scope: "account" });
    const ctx = new ServiceContext(h.deps, { actor: { kind: "system" } });
    assert.equal(await forgetUnusedClients(ctx), 0, "nothing is a day old yet");
    offsetMs += 24 * 3600_000 + 60_000;
    assert.ok((await forgetUnusedClients(new ServiceContext(h.deps, { actor: { kind: "system" } }))) >= 1);
    const ids = (await h.db.orm.em
      .fork()
      .execute(`SELECT client_id FROM "${h.db.schema}".oauth_client WHERE client_id IN (?, ?)`, [unused, used])) as {
      client_id: string;
    }[];
    assert.deepEqual(
      ids.map((r) => r.client_id),
      [used],
    );
  });
});
