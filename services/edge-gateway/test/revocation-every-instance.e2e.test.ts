import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { pkce } from "@flowstate/identity-svc/oauth/testing/oauth-driver";
import { recordSecret } from "@flowstate/shared/testing/secrets";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Door, type DoorFleet, startDoorFleet } from "./door-fleet.ts";
import { authorizeInBrowser } from "./oauth/browser-steps.ts";

/**
 * Issue 20 finding 3 (and privacy-reliability §7 check 2): with two edge-gateway and two
 * mcp-gateway instances, each a real process from its main.ts, the call made right after a
 * revoking call answers is refused at EVERY instance, with every instance's caches warm (a
 * successful call at each just before the revocation). Each revocation goes through the first edge
 * instance; the other edge instance and both MCP instances learn of it only from identity-svc (ADR
 * 0011). Looped REVOCATION_LOOPS times (100), five kinds per loop: sign-out (here, or everywhere on
 * odd loops: REST sessions and MCP grants), API-key revocation,
 * grant revocation (DELETE authorized-clients, or RFC 7009 revocation on odd loops), refresh-token
 * replay (REST and OAuth), account deletion. MCP calls are raw `POST /mcp` requests: what is
 * asserted is the door's own transport-level answer (401 + WWW-Authenticate), before any JSON-RPC.
 */
const LOOPS = Number(process.env.REVOCATION_LOOPS ?? 100);
const CONCURRENCY = Number(process.env.REVOCATION_CONCURRENCY ?? 4);
const REDIRECT = "http://127.0.0.1:41999/callback";

let fleet: DoorFleet;
let clientId: string;

beforeAll(async () => {
  fleet = await startDoorFleet({ edges: 2, mcps: 2 });
  const registered = await fetch(`${fleet.issuer}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "revocation test client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "account",
    }),
  });
  assert.equal(registered.status, 201, await registered.clone().text());
  clientId = ((await registered.json()) as { client_id: string }).client_id;
}, 240_000);

afterAll(async () => {
  await fleet?.close();
}, 60_000);

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Json = any;

async function rest(door: Door, method: string, path: string, credential?: string, body?: unknown) {
  const res = await fetch(`${door.url}${path}`, {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined, headers: res.headers };
}

async function ok(door: Door, method: string, path: string, credential?: string, body?: unknown) {
  const answer = await rest(door, method, path, credential, body);
  assert.ok(answer.status < 300, `${door.name} ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** An MCP request at the transport: `tools/list` (any authenticated call warms the door's caches). */
async function mcp(door: Door, credential: string) {
  const res = await fetch(`${door.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${credential}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await res.text();
  return { status: res.status, challenge: res.headers.get("www-authenticate") };
}

interface Probe {
  door: Door;
  /** A call with the credential at this door: its HTTP status and whether a 401 carries the challenge. */
  call: () => Promise<{ status: number; challenge?: string | null }>;
}

const restProbe = (door: Door, credential: string, path: string): Probe => ({
  door,
  call: () => rest(door, "GET", path, credential),
});
const mcpProbe = (door: Door, credential: string): Probe => ({ door, call: () => mcp(door, credential) });

const failures: string[] = [];
let checks = 0;
/**
 * How long each revoking call took, by kind (printed as p50/p95/max: the push's cost is in them).
 * The max is the worst-case window of §7 check 2: a request sent while the call is in flight may
 * still be served; none sent after it answers is.
 */
const revokeMs = new Map<string, number[]>();
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

/** Warms every probe's door (each must succeed), revokes, then calls every door at once: each must refuse. */
async function revokeAndCheck(kind: string, probes: Probe[], revoke: () => Promise<void>) {
  for (const p of probes) {
    const warm = await p.call();
    assert.equal(warm.status, 200, `${kind}: warming ${p.door.name} answered ${warm.status}`);
  }
  const startedAt = performance.now();
  await revoke();
  const took = performance.now() - startedAt;
  const family = kind.replace(/ \(.*/, "");
  revokeMs.set(family, [...(revokeMs.get(family) ?? []), took]);
  const after = await Promise.all(probes.map((p) => p.call()));
  for (const [i, answer] of after.entries()) {
    checks++;
    const door = probes[i]!.door;
    if (answer.status !== 401) failures.push(`${kind} at ${door.name}: ${answer.status}`);
    else if (door.name.startsWith("mcp") && !answer.challenge?.startsWith("Bearer "))
      failures.push(`${kind} at ${door.name}: 401 without WWW-Authenticate`);
  }
}

/** An OAuth grant for the MCP resource (scope `account`), through the edge's authorization pages. */
async function grant(user: { email: string; password: string }) {
  const { verifier, challenge } = pkce();
  const url = new URL("/oauth/authorize", fleet.issuer);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "account",
    resource: fleet.resource,
    state: randomBytes(8).toString("hex"),
  }))
    url.searchParams.set(k, v);
  const back = await authorizeInBrowser(url, user);
  const code = back.searchParams.get("code");
  assert.ok(code, `no code: ${back.href}`);
  return oauthToken({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: fleet.resource,
  });
}

async function oauthToken(fields: Record<string, string>) {
  const res = await fetch(`${fleet.issuer}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const body = (await res.json()) as Json;
  if (res.status === 200) {
    recordSecret(body.access_token);
    recordSecret(body.refresh_token);
  }
  return { status: res.status, body };
}

describe("revocation reaches every door instance before the revoking call answers", () => {
  it(`the call right after sign-out, key revocation, grant revocation, refresh replay and account deletion is refused at all four instances (${LOOPS} loops)`, async () => {
    const started = performance.now();
    // CONCURRENCY users at a time, each through its own sequence of five revocations: the checks of
    // one user are independent of the others', and pushes then also overlap as in production.
    let next = 0;
    const worker = async () => {
      for (let loop = next++; loop < LOOPS; loop = next++) await oneLoop(loop);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `revocation at every instance: ${LOOPS} loops, ${checks} checks, ${failures.length} served after the revoking call answered (${seconds.toFixed(1)} s)`,
    );
    for (const [kind, values] of revokeMs)
      console.log(
        `  ${kind}: revoking call p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`,
      );
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${checks} calls were served`);
  }, 600_000);
});

async function oneLoop(loop: number) {
  const [edge0, edge1] = fleet.edges as [Door, Door];
  const [mcp0, mcp1] = fleet.mcps as [Door, Door];
  const email = `rev-${randomUUID()}@example.test`;
  const password = recordSecret(`pw-${randomUUID()}`);
  const user = { email, password };
  await ok(edge0, "POST", "/v1/auth/signup", undefined, { email, password, name: "Revoked" });
  const signIn = async () => {
    const t = await ok(edge0, "POST", "/v1/auth/signin", undefined, { email, password });
    recordSecret(t.access_token);
    recordSecret(t.refresh_token);
    return t as { access_token: string; refresh_token: string };
  };
  let main = await signIn();
  const tenant = (await ok(edge0, "POST", "/v1/tenants", main.access_token, { name: "Revoked" })).id as string;

  // 1. Sign-out: "here" (the session's access token), or on odd loops "everywhere" (every REST
  // session of the account and its MCP grant too; the account then signs in again for the rest).
  const everywhere = loop % 2 === 1;
  const doomed = await signIn();
  const mcpGrant = everywhere ? await grant(user) : undefined;
  await revokeAndCheck(
    everywhere ? "sign-out (everywhere)" : "sign-out (here)",
    [
      ...[edge0, edge1].map((d) => restProbe(d, doomed.access_token, "/v1/users/me")),
      ...(everywhere ? [edge0, edge1].map((d) => restProbe(d, main.access_token, "/v1/users/me")) : []),
      ...(mcpGrant ? [mcp0, mcp1].map((d) => mcpProbe(d, mcpGrant.body.access_token)) : []),
    ],
    async () =>
      void (await ok(
        edge0,
        "POST",
        everywhere ? "/v1/auth/signout-everywhere" : "/v1/auth/signout",
        doomed.access_token,
      )),
  );
  if (everywhere) main = await signIn();

  // 2. API-key revocation: the key, at both REST and both MCP instances.
  const key = await ok(edge0, "POST", `/v1/tenants/${tenant}/api-keys`, main.access_token, {
    name: "k",
    scope: "read",
  });
  recordSecret(key.secret);
  await revokeAndCheck(
    "key revocation",
    [
      ...[edge0, edge1].map((d) => restProbe(d, key.secret, `/v1/tenants/${tenant}`)),
      ...[mcp0, mcp1].map((d) => mcpProbe(d, key.secret)),
    ],
    async () => void (await ok(edge0, "DELETE", `/v1/tenants/${tenant}/api-keys/${key.key_id}`, main.access_token)),
  );

  // 3. Grant revocation: the MCP access token, after DELETE authorized-clients or RFC 7009.
  const granted = await grant(user);
  assert.equal(granted.status, 200, JSON.stringify(granted.body));
  const viaRfc7009 = loop % 2 === 1;
  await revokeAndCheck(
    viaRfc7009 ? "grant revocation (RFC 7009)" : "grant revocation (authorized-clients)",
    [mcp0, mcp1].map((d) => mcpProbe(d, granted.body.access_token)),
    async () => {
      if (viaRfc7009) {
        const res = await fetch(`${fleet.issuer}/oauth/revoke`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            token: granted.body.refresh_token,
            token_type_hint: "refresh_token",
            client_id: clientId,
          }).toString(),
        });
        assert.equal(res.status, 200, await res.text());
        return;
      }
      const list = await ok(edge0, "GET", "/v1/users/me/authorized-clients", main.access_token);
      const ref = list.authorized_clients.find((c: Json) => c.client_id === clientId)?.client_ref;
      assert.ok(ref, `no authorized client in ${JSON.stringify(list)}`);
      await ok(edge0, "DELETE", `/v1/users/me/authorized-clients/${ref}`, main.access_token);
    },
  );

  // 4. Refresh-token replay: REST (a session's refresh token spent twice) and OAuth.
  const replayed = await signIn();
  const rotated = await ok(edge0, "POST", "/v1/auth/refresh", undefined, { refresh_token: replayed.refresh_token });
  recordSecret(rotated.access_token);
  recordSecret(rotated.refresh_token);
  const oauth = await grant(user);
  const oauthRotated = await oauthToken({
    grant_type: "refresh_token",
    refresh_token: oauth.body.refresh_token,
    client_id: clientId,
    resource: fleet.resource,
  });
  assert.equal(oauthRotated.status, 200, JSON.stringify(oauthRotated.body));
  await revokeAndCheck(
    "refresh replay (REST)",
    [edge0, edge1].map((d) => restProbe(d, rotated.access_token, "/v1/users/me")),
    async () => {
      const res = await rest(edge0, "POST", "/v1/auth/refresh", undefined, {
        refresh_token: replayed.refresh_token,
      });
      assert.equal(res.status, 401, JSON.stringify(res.body));
    },
  );
  await revokeAndCheck(
    "refresh replay (OAuth)",
    [mcp0, mcp1].map((d) => mcpProbe(d, oauthRotated.body.access_token)),
    async () => {
      const res = await oauthToken({
        grant_type: "refresh_token",
        refresh_token: oauth.body.refresh_token,
        client_id: clientId,
        resource: fleet.resource,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
    },
  );

  // 5. Account deletion (the tenant is deleted first: an owner cannot delete the account).
  const last = await grant(user);
  await ok(edge0, "DELETE", `/v1/tenants/${tenant}`, main.access_token);
  await revokeAndCheck(
    "account deletion",
    [
      ...[edge0, edge1].map((d) => restProbe(d, main.access_token, "/v1/users/me")),
      ...[mcp0, mcp1].map((d) => mcpProbe(d, last.body.access_token)),
    ],
    // Without {password}: the main session signed in moments ago (deletion needs a sign-in ≤ 15 min old).
    async () => void (await ok(edge0, "DELETE", "/v1/users/me", main.access_token)),
  );
}
