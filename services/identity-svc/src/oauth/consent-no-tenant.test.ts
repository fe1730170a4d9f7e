import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness } from "../testing/harness.ts";
import { hiddenFields, oauthDriver } from "./testing/oauth-driver.ts";

/**
 * Issue 20, "MCP answers and set-up": stock MCP clients ask for every scope the resource metadata
 * lists. A person with no tenant (the one who soft-deleted their last tenant to delete the account)
 * must still be able to grant what needs no tenant (`account`), told what was left out and why;
 * the token's `scope` lists only what was granted (RFC 6749 section 3.3).
 */
let h: Harness;
let oauth: ReturnType<typeof oauthDriver>;
const REDIRECT = "http://127.0.0.1/callback";
const EVERY_SCOPE = "marketplace:read marketplace:write account";
beforeAll(async () => {
  h = await startHarness({ prefix: "id_oauth_notenant" });
  oauth = oauthDriver(h);
});
afterAll(() => h.close());

describe("consent for a person who belongs to no tenant", () => {
  it("offers Allow for the account scope, says what was left out, and issues a token with that scope only", async () => {
    const user = await h.signUp();
    const clientId = await oauth.register([REDIRECT]);
    const { html, verifier } = await oauth.consentPage(user, clientId, REDIRECT, EVERY_SCOPE);
    assert.match(html, /<button[^>]*value="allow"/, "an Allow button");
    assert.match(html, /<strong>account<\/strong>/);
    assert.match(html, /not a member of any tenant/);
    // What is left out is named, and not listed among what the client will be able to do.
    const leftOut = html.slice(html.indexOf('id="left-out"'));
    assert.match(leftOut, /marketplace:read/);
    assert.match(leftOut, /marketplace:write/);
    const granted = html.slice(html.indexOf("<fieldset>"), html.indexOf("</fieldset>"));
    assert.doesNotMatch(granted, /marketplace:/);

    const answer = await oauth.form("/oauth/authorize/consent", { ...hiddenFields(html), decision: "allow" });
    assert.equal(answer.status, 303);
    const code = new URL(answer.headers.get("location")!).searchParams.get("code");
    assert.ok(code, answer.headers.get("location") ?? "");
    const res = await oauth.token({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    assert.equal(res.status, 200);
    const tokens = (await res.json()) as { access_token: string; scope: string };
    assert.equal(tokens.scope, "account", "the token response says what was granted");
    assert.equal(decodeJwt(tokens.access_token).scope, "account");
    assert.equal(decodeJwt(tokens.access_token).tenant_id, undefined);
  });

  it("still offers no Allow when only marketplace scopes were asked for", async () => {
    const user = await h.signUp();
    const clientId = await oauth.register([REDIRECT]);
    const { html } = await oauth.consentPage(user, clientId, REDIRECT, "marketplace:read");
    assert.doesNotMatch(html, /value="allow"/);
    assert.match(html, /not a member of any tenant/);
  });

  it("still asks a member for a tenant and grants every scope asked for", async () => {
    const user = await h.signUp();
    await h.createTenant(user);
    const clientId = await oauth.register([REDIRECT]);
    const tokens = await oauth.tokens(user, clientId, REDIRECT, { scope: EVERY_SCOPE });
    assert.equal(tokens.scope, EVERY_SCOPE);
  });
});
