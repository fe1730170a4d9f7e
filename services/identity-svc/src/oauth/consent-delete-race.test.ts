import assert from "node:assert/strict";
import { holdLocks } from "@flowstate/shared/testing/held-locks";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { hiddenFields, oauthDriver } from "./testing/oauth-driver.ts";

/**
 * A person answers an OAuth consent page while their account is being deleted (another tab).
 * The consent took the interaction's row and wrote a code naming the account, whose deferred
 * foreign key takes the account's row at COMMIT, last; the deletion holds the account's row and
 * then deletes the account's interactions, this one among them: each waited for the other and
 * PostgreSQL aborted one (40P01), a 500. Made to meet every time: another transaction holds the
 * account's session row, so the deletion waits there holding the account, until the consent waits
 * too.
 */
let h: Harness;
let oauth: ReturnType<typeof oauthDriver>;
const REDIRECT = "http://127.0.0.1/callback";
beforeAll(async () => {
  h = await startHarness({ prefix: "id_consent_delete" });
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

describe("consent and the account's deletion at once", () => {
  it("the deletion goes through and the consent finds its interaction gone, neither a 500", async () => {
    const user = await h.signUp();
    const clientId = await oauth.register([REDIRECT]);
    const { html } = await oauth.consentPage(user, clientId, REDIRECT, "account");
    const consentForm = { ...hiddenFields(html), decision: "allow" };

    const held = await holdLocks(h.db);
    let answers: Promise<[number, number]> | undefined;
    try {
      await held.em.execute(`SELECT 1 FROM "${h.db.schema}".user_session WHERE sub = ? FOR UPDATE`, [user.sub]);
      const deletion = h.call("DELETE", "/v1/users/me", { as: user.identity });
      await held.waiters(1, "the deletion waits for the session");
      // Before the fix its wait was at COMMIT (the code's deferred key check): holdLocks sees it too.
      const consent = oauth.form("/oauth/authorize/consent", consentForm);
      await held.waiters(2, "the consent waits for the deletion");
      answers = Promise.all([deletion.then((r) => r.status), consent.then((r) => r.status)]);
      await held.commit();
    } finally {
      await held.close();
    }
    const [deleted, consented] = await answers!;
    assert.equal(deleted, 200);
    assert.ok(consented < 500, `the consent answered ${consented}`);
    const codes = await h.db.orm.em
      .fork()
      .execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${h.db.schema}".oauth_code WHERE sub = ?`, [user.sub]);
    assert.equal(codes[0]?.n, 0, "no code of the deleted account is left");
  });
});
