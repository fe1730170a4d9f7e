import assert from "node:assert/strict";
import { afterAll, beforeAll, describe, it } from "vitest";
import { tableOf } from "../deps.ts";
import { startConsole } from "../testing/harness.ts";
import { createSession } from "./sessions.ts";

let web: Awaited<ReturnType<typeof startConsole>>;
beforeAll(async () => {
  // No call reaches the API here: opening a session only writes this service's table.
  web = await startConsole({
    prefix: "sessions",
    gatewayUrl: "http://127.0.0.1:9",
    publicOrigin: "http://127.0.0.1:9",
  });
});
afterAll(() => web.close());

const tokens = { access_token: "a", refresh_token: "r", expires_in: 900 };
const subs = async () =>
  (
    await web.deps.orm.em
      .fork()
      .execute<{ sub: string }[]>(`SELECT sub FROM ${tableOf(web.deps, "console_session")} ORDER BY sub`)
  ).map((r) => r.sub);

describe("console sessions", () => {
  it("opening one sweeps the expired ones (a browser closed without signing out) and leaves the live ones", async () => {
    await createSession(web.deps, { sub: "usr_live00000000", tokens, signedInAt: new Date() });
    await createSession(web.deps, { sub: "usr_gone00000000", tokens, signedInAt: new Date() });
    await web.deps.orm.em
      .fork()
      .execute(
        `UPDATE ${tableOf(web.deps, "console_session")} SET expires_at = now() - interval '1 minute' WHERE sub = ?`,
        ["usr_gone00000000"],
      );
    assert.deepEqual(await subs(), ["usr_gone00000000", "usr_live00000000"]);
    await createSession(web.deps, { sub: "usr_next00000000", tokens, signedInAt: new Date() });
    assert.deepEqual(await subs(), ["usr_live00000000", "usr_next00000000"]);
  });
});
