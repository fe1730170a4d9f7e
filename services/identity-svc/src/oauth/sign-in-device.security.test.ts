import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DEVICE_COOKIE } from "@flowstate/contracts/rest/identity/auth";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { hiddenFields, oauthDriver, pkce } from "./testing/oauth-driver.ts";

/**
 * Issue 20 finding 7 on the authorization page: the browser that signed in before holds a device
 * cookie and gets in while a stranger's guesses hold the account for everyone else.
 */
let h: Harness;
let oauth: ReturnType<typeof oauthDriver>;
const REDIRECT = "http://127.0.0.1/callback";
beforeAll(async () => {
  h = await startHarness({ prefix: "id_oauth_device", signInThrottle: { baseMs: 60_000 } });
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

/** Opens an authorization page and posts its sign-in form, with the browser's cookie if it has one. */
async function signInOnPage(clientId: string, email: string, password: string, cookie?: string) {
  const page = await oauth.authorize({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: "S256",
  });
  const fields = { ...hiddenFields(await page.text()), email, password };
  return oauth.form("/oauth/authorize/signin", fields, cookie ? { cookie } : {});
}

describe("the authorization page's device cookie", () => {
  it("is set by a good sign-in and lets its browser in while the account is held for others", async () => {
    const owner = await h.signUp();
    const clientId = await oauth.register([REDIRECT]);
    const first = await signInOnPage(clientId, owner.email, owner.password);
    assert.equal(first.status, 200);
    const setCookie = first.headers.get("set-cookie") ?? "";
    assert.match(setCookie, new RegExp(`^${DEVICE_COOKIE}=dvt_[A-Za-z0-9_-]{43};`));
    for (const attribute of ["Path=/", "Secure", "HttpOnly", "SameSite=Strict"])
      assert.ok(setCookie.includes(attribute));
    const cookie = recordSecret(setCookie.split(";")[0]!);

    for (let i = 0; i < 5; i++) {
      const guess = await signInOnPage(clientId, owner.email, recordSecret(`wrong-${randomUUID()}`));
      assert.equal(guess.status, 401);
    }
    const elsewhere = await signInOnPage(clientId, owner.email, owner.password);
    assert.equal(elsewhere.status, 401, "held for a browser without the cookie");
    assert.match(await elsewhere.text(), /Too many failed sign-ins/);

    const mine = await signInOnPage(clientId, owner.email, owner.password, cookie);
    assert.equal(mine.status, 200, "the owner's browser gets the consent page");
    assert.match(mine.headers.get("set-cookie") ?? "", new RegExp(`^${DEVICE_COOKIE}=dvt_`));
    recordSecret((mine.headers.get("set-cookie") ?? "").split(";")[0]!);
  });

  it("gives a cookie of another account no exemption", async () => {
    const owner = await h.signUp();
    const other = await h.signUp();
    const clientId = await oauth.register([REDIRECT]);
    const theirs = await signInOnPage(clientId, other.email, other.password);
    const cookie = recordSecret((theirs.headers.get("set-cookie") ?? "").split(";")[0]!);
    for (let i = 0; i < 5; i++) await signInOnPage(clientId, owner.email, recordSecret(`wrong-${randomUUID()}`));
    const res = await signInOnPage(clientId, owner.email, owner.password, cookie);
    assert.equal(res.status, 401);
    assert.match(await res.text(), /Too many failed sign-ins/);
  });
});
