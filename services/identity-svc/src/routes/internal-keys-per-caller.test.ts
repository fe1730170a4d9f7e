import assert from "node:assert/strict";
import { bodyless, IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { serviceSigner, testKeyring } from "@flowstate/shared/auth/keyring";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Harness, startHarness, type TestUser } from "../testing/harness.ts";

/**
 * identity-svc's internal routes with keys per caller (ADR 0014): each caller signs with its own
 * pair's key; a caller the registry gives no pair with identity-svc (partner-inbound) is refused
 * with 403 whatever route it tries, and a caller with a pair reaches only its routes.
 */
let h: Harness;
let alice: TestUser;
beforeAll(async () => {
  h = await startHarness({ prefix: "id_keys" });
  alice = await h.signUp({ name: "Alice" });
});
afterAll(() => h.close());

const signerOf = (
  service: "privacy-svc" | "offers-svc" | "partner-inbound",
  callee: "identity-svc" | "connector-svc",
) => serviceSigner(testKeyring(service, h.secret), callee);
const profile = () => `/internal/v1/users/${alice.sub}/personal-data/profile`;
const get = (path: string, header: string) => h.app.request(path, { headers: { [IDENTITY_HEADER]: header } });

describe("identity-svc's internal routes, a key per caller", () => {
  it("answers privacy-svc signing with its own pair", async () => {
    const res = await get(profile(), signerOf("privacy-svc", "identity-svc")(bodyless("GET", profile())));
    assert.equal(res.status, 200, await res.clone().text());
  });

  it("takes offers-svc's credential check with its own pair", async () => {
    const body = JSON.stringify({ identity: { kind: "user", sub: alice.sub, sid: alice.sid } });
    const target = "/internal/v1/credentials/check";
    const res = await h.app.request(target, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        [IDENTITY_HEADER]: signerOf(
          "offers-svc",
          "identity-svc",
        )({
          method: "POST",
          target,
          bodySha256: sha256Base64url(body),
        }),
      },
    });
    assert.equal(res.status, 204, await res.clone().text());
  });

  it("refuses offers-svc on privacy-svc's route (403): its pair is for the credential check only", async () => {
    const res = await get(profile(), signerOf("offers-svc", "identity-svc")(bodyless("GET", profile())));
    assert.equal(res.status, 403);
  });

  it("refuses partner-inbound's key on every route with 403: it holds no pair with identity-svc", async () => {
    // What a stolen partner-inbound can sign: its connector-svc key, under its own name.
    const forged = signerOf("partner-inbound", "connector-svc")(bodyless("GET", profile()));
    const res = await get(profile(), forged);
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { code: string }).code, "FORBIDDEN");
  });
});
