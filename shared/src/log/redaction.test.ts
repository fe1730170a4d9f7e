import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { recordSecret } from "../testing/secrets.ts";
import { captureLogs } from "./capture.ts";
import { createLogger } from "./logger.ts";
import { redact } from "./redaction.ts";

/** Every value logged here is recorded, so the runner's log scan double-checks this file's own claims. */
const secret = (label: string) => recordSecret(`${label}-${crypto.randomUUID()}`);

function logOne(object: Record<string, unknown>) {
  const capture = captureLogs();
  createLogger({ service: "redaction-test", destination: capture.stream }).info(object, "line");
  assert.equal(capture.lines.length, 1);
  return { line: capture.lines[0]!, text: capture.text() };
}

describe("log redaction", () => {
  const categories: Record<string, string[]> = {
    "authorization headers": ["authorization", "Authorization", "proxy-authorization"],
    cookies: ["cookie", "Cookie", "set-cookie", "Set-Cookie"],
    tokens: ["access_token", "refresh_token", "id_token", "token", "session_token", "SessionToken", "accessToken"],
    "API keys and keys": ["api_key", "apiKey", "x-api-key", "key"],
    secrets: ["secret", "client_secret", "SecretString", "SecretAccessKey"],
    passwords: ["password", "new_password", "currentPassword", "passwd"],
    "external IDs": ["external_id", "externalId", "ExternalId"],
    "the gateway identity assertion": ["flowstate-identity"],
  };
  for (const [category, keys] of Object.entries(categories)) {
    it(`redacts ${category} at the top level and nested in headers`, () => {
      for (const key of keys) {
        const top = secret(key);
        const nested = secret(key);
        const { line, text } = logOne({ [key]: top, req: { headers: { [key]: nested } } });
        assert.equal(line[key], "[redacted]", key);
        assert.equal((line.req as { headers: Record<string, unknown> }).headers[key], "[redacted]", key);
        assert.doesNotMatch(text, new RegExp(`${top}|${nested}`));
      }
    });
  }

  it("redacts at depth, inside arrays, and leaves other fields alone", () => {
    const deep = secret("deep");
    const inArray = secret("array");
    const { line, text } = logOne({
      tenant_id: "tnt_0123456789",
      a: { b: { c: { d: { e: { password: deep } } } } },
      users: [{ id: "usr_1", refresh_token: inArray }],
    });
    assert.equal(line.tenant_id, "tnt_0123456789");
    assert.doesNotMatch(text, new RegExp(`${deep}|${inArray}`));
    assert.match(text, /"id":"usr_1"/);
  });

  it("redacts child logger bindings, including the grandchildren's", () => {
    const capture = captureLogs();
    const token = secret("binding");
    const password = secret("grandchild");
    const logger = createLogger({ service: "redaction-test", destination: capture.stream });
    logger.child({ token }).child({ user: { password } }).info("bound");
    assert.doesNotMatch(capture.text(), new RegExp(`${token}|${password}`));
    assert.equal(capture.lines[0]!.token, "[redacted]");
  });

  it("redacts fields attached to a logged error but keeps its message and stack", () => {
    const capture = captureLogs();
    const leaked = secret("error-field");
    const err = Object.assign(new Error("upstream refused"), { client_secret: leaked });
    createLogger({ service: "redaction-test", destination: capture.stream }).error({ err }, "failed");
    const logged = capture.lines[0]!.err as Record<string, unknown>;
    assert.equal(logged.message, "upstream refused");
    assert.match(String(logged.stack), /upstream refused/);
    assert.equal(logged.client_secret, "[redacted]");
  });

  it("censors e-mail addresses in a logged error's text (SES names the addresses it refused), under any key", () => {
    const capture = captureLogs();
    const address = `jane.doe+${crypto.randomUUID().slice(0, 8)}@example-mail.co.uk`;
    const err = Object.assign(new Error(`Email address is not verified: ${address}`), { name: "MessageRejected" });
    const logger = createLogger({ service: "redaction-test", destination: capture.stream });
    logger.error({ err }, "send failed");
    logger.warn({ failure: err, nested: { cause: new Error(`to <${address}>`) } }, "again");
    assert.ok(!capture.text().includes(address), capture.text());
    assert.equal((capture.lines[0]!.err as Record<string, unknown>).message, "Email address is not verified: [email]");
    assert.match(String((capture.lines[0]!.err as Record<string, unknown>).stack), /not verified: \[email\]/);
  });

  it("prints an object nested too deep to inspect as a marker rather than unredacted", () => {
    const leaked = secret("too-deep");
    let value: Record<string, unknown> = { password: leaked };
    for (let i = 0; i < 12; i++) value = { next: value };
    const { text } = logOne({ value });
    assert.doesNotMatch(text, new RegExp(leaked));
    assert.match(text, /\[too deep\]/);
  });

  it("serialises and redacts errors logged under other keys, nested, or inside an error's fields", () => {
    const leaks = [secret("error-key"), secret("nested-err"), secret("aggregate")];
    const { line, text } = logOne({
      error: Object.assign(new Error("under error"), { client_secret: leaks[0] }),
      ctx: { err: Object.assign(new Error("nested"), { token: leaks[1] }) },
      failures: new AggregateError([Object.assign(new Error("one of many"), { apiKey: leaks[2] })], "several failed"),
    });
    assert.doesNotMatch(text, new RegExp(leaks.join("|")));
    const error = line.error as Record<string, unknown>;
    assert.equal(error.message, "under error");
    assert.match(String(error.stack), /under error/);
    assert.equal(error.client_secret, "[redacted]");
    assert.match(text, /one of many/);
  });

  it("never mutates the object the caller logged", () => {
    const value = { password: "keep-me-here", inner: { token: "and-me-too" } };
    const copy = structuredClone(value);
    redact(value);
    assert.deepEqual(value, copy);
  });

  it("returns the same object when nothing is sensitive, so the common line allocates nothing", () => {
    const value = { method: "GET", route: "/healthz", status: 200 };
    assert.equal(redact(value), value);
  });
});
