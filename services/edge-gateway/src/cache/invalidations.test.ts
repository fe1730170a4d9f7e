import assert from "node:assert/strict";
import { describe, it } from "vitest";
import { randomId } from "../../test/keys.ts";
import { InvalidationLog } from "./invalidation-log.ts";
import { applyInvalidations, depKeys, keysFor, parseInvalidateHeader } from "./invalidations.ts";

describe("invalidations", () => {
  it("stamps the most specific key an invalidation names", () => {
    const sub = randomId("usr");
    const sid = randomId("ses");
    const tenant = randomId("tnt");
    assert.deepEqual(keysFor({ scope: "account", sub }), [depKeys.account(sub)]);
    assert.deepEqual(keysFor({ scope: "session", sid, sub }), [depKeys.session(sid)]);
    assert.deepEqual(keysFor({ scope: "membership", tenant_id: tenant, sub }), [depKeys.membership(tenant, sub)]);
    assert.deepEqual(keysFor({ scope: "membership", tenant_id: tenant }), [depKeys.tenant(tenant)]);
    assert.equal(keysFor({ scope: "api_key" }), null);
  });

  it("drops every cached fact when an invalidation names nothing usable", () => {
    const log = new InvalidationLog(60_000);
    const seq = log.snapshot();
    applyInvalidations(log, [{ scope: "account", sub: randomId("usr") }, { scope: "session" }]);
    assert.equal(log.isFresh([depKeys.session(randomId("ses"))], seq), false);
  });

  it("parses the header as a JSON list or a single object, and reports anything else as unparseable", () => {
    const sid = randomId("ses");
    assert.deepEqual(parseInvalidateHeader(JSON.stringify([{ scope: "session", sid }])), [{ scope: "session", sid }]);
    assert.deepEqual(parseInvalidateHeader(JSON.stringify({ scope: "session", sid })), [{ scope: "session", sid }]);
    assert.equal(parseInvalidateHeader("session"), null);
    assert.equal(parseInvalidateHeader(JSON.stringify([{ scope: "everything" }])), null);
  });
});
