import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { keyringVerifier, testKeyring } from "@flowstate/shared/auth/keyring";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { PrivacyDeps } from "../deps.ts";
import { AccountGone, GatheringError } from "./errors.ts";
import { remoteCategory } from "./participant-client.ts";

const secret = "test-secret-of-the-assertion";
const sub = "usr_0123456789abcdefghij";
const line = (v: unknown) => `${JSON.stringify(v)}\n`;

/** A participant whose answer each test chooses; it also checks privacy-svc's signed identity. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
let url: string;
const verify = keyringVerifier(testKeyring("identity-svc", secret));
const server = createServer((req, res) => {
  const verified = verify(bodyless("GET", req.url!), req.headers[IDENTITY_HEADER] as string)?.assertion;
  if (verified?.identity.kind !== "service" || verified.identity.service !== "privacy-svc") {
    res.writeHead(401).end();
    return;
  }
  answer(req, res);
});

// A participant that answers gets 15 s (a loaded machine has taken over a second for the first
// request); the test of a participant that never answers shortens it to 1 s.
const deps = (participantTimeoutMs = 15_000) =>
  ({
    callerKeys: testKeyring("privacy-svc", secret),
    participantUrls: { "identity-svc": url },
    limits: { participantTimeoutMs },
  }) as unknown as PrivacyDeps;
const read = async (category: "memberships" | "profile" = "memberships", timeoutMs?: number) => {
  const out: unknown[] = [];
  for await (const r of remoteCategory(deps(timeoutMs), "identity-svc", sub, category, new AbortController().signal))
    out.push(r);
  return out;
};

describe("remoteCategory", () => {
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("yields the records of a complete answer, asking with privacy-svc's signed identity", async () => {
    answer = (req, res) => {
      assert.equal(req.url, `/internal/v1/users/${sub}/personal-data/memberships`);
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(line({ record: { n: 1 } }));
      res.end(line({ record: { n: 2 } }) + line({ end: { count: 2 } }));
    };
    assert.deepEqual(await read(), [{ n: 1 }, { n: 2 }]);
  });

  it("treats an answer without its end line, or with another count, as a failure, never a shorter list", async () => {
    answer = (_req, res) => res.writeHead(200).end(line({ record: { n: 1 } }));
    await assert.rejects(read(), GatheringError);
    answer = (_req, res) => res.writeHead(200).end(line({ record: { n: 1 } }) + line({ end: { count: 3 } }));
    await assert.rejects(read(), GatheringError);
    answer = (_req, res) => {
      res.writeHead(200).write(line({ record: { n: 1 } }));
      res.destroy();
    };
    await assert.rejects(read(), GatheringError);
    answer = (_req, res) => res.writeHead(200).end(`${line({ end: { count: 0 } })}{"record":`);
    await assert.rejects(read(), GatheringError);
  });

  it("says the account is gone on 404 ACCOUNT_GONE only, and fails on any other 404, an error answer, a timeout or no answer", async () => {
    const problem = (code: string) => JSON.stringify({ status: 404, code });
    answer = (_req, res) =>
      res.writeHead(404, { "content-type": "application/problem+json" }).end(problem("ACCOUNT_GONE"));
    await assert.rejects(read("profile"), AccountGone);
    // A missing route (a participant without it, a wrong base URL) or a proxy's page is no deletion.
    for (const body of [problem("NOT_FOUND"), "{}", "<html>Not Found</html>", ""]) {
      answer = (_req, res) => res.writeHead(404).end(body);
      await assert.rejects(read("profile"), (e: unknown) => e instanceof GatheringError && /404/.test(e.message), body);
    }
    answer = (_req, res) => res.writeHead(503).end("{}");
    await assert.rejects(read(), GatheringError);
    answer = () => {}; // never answers: the participant timeout ends it
    await assert.rejects(read("memberships", 1_000), /timed out/);
    const closed = url;
    url = "http://127.0.0.1:9";
    try {
      await assert.rejects(read(), /unreachable/);
    } finally {
      url = closed;
    }
  });
});
