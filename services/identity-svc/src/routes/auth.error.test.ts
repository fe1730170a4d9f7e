import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { afterAll, beforeAll, describe, it } from "vitest";
import { DEFAULT_ARGON2 } from "../crypto/password.ts";
import { type Harness, outboxEvents, startHarness } from "../testing/harness.ts";
import { disableAccount } from "../verbs/disable-account.ts";

let h: Harness;
beforeAll(async () => {
  // OWASP's cost, not the test run's: the timing case below measures Argon2's work.
  h = await startHarness({ prefix: "id_auth_err", argon2: DEFAULT_ARGON2 });
});
afterAll(() => h.close());

type Problem = { code: string; status: number; detail?: string; request_id: string; errors?: { path: string }[] };
const problem = async (res: Response) => {
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  return (await res.json()) as Problem;
};
const withoutRequestId = ({ request_id: _, ...rest }: Problem) => rest;

describe("sign-in failures", () => {
  it("gives one identical 401 INVALID_CREDENTIALS for a wrong password and for an unknown e-mail", async () => {
    const u = await h.signUp();
    const wrong = await h.call("POST", "/v1/auth/signin", {
      body: { email: u.email, password: recordSecret(`wrong-${randomUUID()}`) },
    });
    const unknown = await h.call("POST", "/v1/auth/signin", {
      body: { email: `nobody-${randomUUID()}@example.test`, password: u.password },
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    const a = await problem(wrong);
    assert.equal(a.code, "INVALID_CREDENTIALS");
    assert.deepEqual(withoutRequestId(a), withoutRequestId(await problem(unknown)));
  });

  it("spends the same Argon2 work on an unknown e-mail as on a wrong password", async () => {
    const u = await h.signUp();
    const time = async (email: string) => {
      const t = performance.now();
      await h.call("POST", "/v1/auth/signin", { body: { email, password: "not the password" } });
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(u.email));
      unknown.push(await time(`nobody-${randomUUID()}@example.test`));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[2]!;
    // Both include a full Argon2id verification (~30 ms); without the dummy hash the unknown case is ~1 ms.
    assert.ok(median(unknown) > median(known) * 0.5, `unknown ${median(unknown)} ms vs known ${median(known)} ms`);
  });

  it("refuses a disabled account with 403 ACCOUNT_DISABLED only when the password is right", async () => {
    const u = await h.signUp();
    await disableAccount({ ctx: h.ctx({ kind: "system" }), sub: u.sub });
    const right = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
    assert.equal(right.status, 403);
    assert.equal((await problem(right)).code, "ACCOUNT_DISABLED");
    const wrong = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: "wrong password!" } });
    assert.equal((await problem(wrong)).code, "INVALID_CREDENTIALS");
  });
});

describe("sign-up of an e-mail that already has an account", () => {
  it("answers 201 with a sub like any other, changes nothing, and tells the owner through an event", async () => {
    const u = await h.signUp();
    const res = await h.call("POST", "/v1/auth/signup", {
      body: { email: u.email.toUpperCase(), password: recordSecret(`other-${randomUUID()}`), name: "Someone Else" },
    });
    assert.equal(res.status, 201);
    const { sub } = (await res.json()) as { sub: string };
    assert.match(sub, /^usr_[0-9A-Za-z]{22}$/);
    assert.notEqual(sub, u.sub);
    // The real account is untouched: its password still works.
    const signin = await h.call("POST", "/v1/auth/signin", { body: { email: u.email, password: u.password } });
    assert.equal(signin.status, 200);
    recordSecret(((await signin.json()) as { access_token: string }).access_token);
    const events = await outboxEvents(h, "SignUpAttemptedForExistingAccount.v1");
    assert.ok(events.some((e) => e.envelope.data.sub === u.sub));
    assert.ok(
      !(await outboxEvents(h, "UserSignedUp.v1")).some((e) => e.envelope.data.sub === sub),
      "no account was made",
    );
  });
});

describe("malformed auth requests", () => {
  const cases: [string, { body?: unknown; raw?: string; headers?: Record<string, string> }, number, string][] = [
    ["a short password", { body: { email: "a@example.test", password: "short", name: "A" } }, 400, "VALIDATION_FAILED"],
    [
      "a bad e-mail",
      { body: { email: "not-an-email", password: "long enough pw", name: "A" } },
      400,
      "VALIDATION_FAILED",
    ],
    [
      "an unknown field",
      { body: { email: "a@example.test", password: "long enough pw", name: "A", admin: true } },
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a huge password",
      { body: { email: "a@example.test", password: "x".repeat(300), name: "A" } },
      400,
      "VALIDATION_FAILED",
    ],
    ["malformed JSON", { raw: "{not json" }, 400, "MALFORMED_JSON"],
    [
      "a non-JSON content type",
      { raw: "email=a", headers: { "content-type": "text/plain" } },
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
  ];
  for (const [what, req, status, code] of cases) {
    it(`answers ${status} ${code} to a sign-up with ${what}`, async () => {
      const res = await h.call("POST", "/v1/auth/signup", req);
      assert.equal(res.status, status);
      assert.equal((await problem(res)).code, code);
    });
  }

  it("answers 401 INVALID_REFRESH_TOKEN to an unknown refresh token", async () => {
    const res = await h.call("POST", "/v1/auth/refresh", { body: { refresh_token: "rt_nonsense" } });
    assert.equal(res.status, 401);
    assert.equal((await problem(res)).code, "INVALID_REFRESH_TOKEN");
  });

  it("answers 413 to an oversized body before reading it", async () => {
    const res = await h.call("POST", "/v1/auth/signup", { raw: JSON.stringify({ name: "x".repeat(100_000) }) });
    assert.equal(res.status, 413);
  });
});
