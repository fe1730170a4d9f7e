import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { hiddenFields, oauthDriver, pkce } from "./testing/oauth-driver.ts";

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
    const { challenge } = pkce();
    const page = await oauth.authorize({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "account",
    });
    const signedIn = await oauth.form("/oauth/authorize/signin", {
      ...hiddenFields(await page.text()),
      email: user.email,
      password: user.password,
    });
    assert.equal(signedIn.status, 200);
    const consentForm = { ...hiddenFields(await signedIn.text()), decision: "allow" };

    const holder = await h.db.oneConnection();
    // Its own connection: the service's pool is busy with the waiting requests.
    const watcher = await h.db.oneConnection();
    // Who waits for whom, by backend: the consent's wait may be on its COMMIT (a deferred key
    // check), whose text names no table.
    const blockedBy = async (pid: number) => {
      const rows = await watcher.em
        .fork()
        .execute<{ pid: number }[]>("SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))", [pid]);
      return rows.map((r) => r.pid);
    };
    const until = async <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => {
      for (let i = 0; ; i++) {
        const found = await probe();
        if (found !== undefined) return found;
        assert.ok(i < 1000, what);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    let answers: Promise<[number, number]> | undefined;
    try {
      const em = holder.em.fork();
      await em.execute("BEGIN");
      const [{ pid: holderPid }] = (await em.execute("SELECT pg_backend_pid() AS pid")) as [{ pid: number }];
      await em.execute(`SELECT 1 FROM "${h.db.schema}".user_session WHERE sub = ? FOR UPDATE`, [user.sub]);
      const deletion = h.call("DELETE", "/v1/users/me", { as: user.identity });
      const deleting = await until(
        async () => (await blockedBy(holderPid))[0],
        "the deletion never waited for the session",
      );
      const consent = oauth.form("/oauth/authorize/consent", consentForm);
      await until(async () => (await blockedBy(deleting)).length || undefined, "the consent never waited");
      answers = Promise.all([deletion.then((r) => r.status), consent.then((r) => r.status)]);
      await em.execute("COMMIT");
    } finally {
      await holder.close(true);
      await watcher.close(true);
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
