/**
 * The population of the mixed gateway run: many tenants with a few users each, created through the
 * gateway's public routes exactly as users would (sign-up, sign-in, create a tenant, invite the
 * others, who accept),
 * and the mixed workload over them. Sign-up and sign-in each cost an Argon2 hash in identity-svc,
 * so the calls run in parallel with bounded concurrency (identity-svc hashes on libuv's 4 threads;
 * more in flight only queues) rather than one by one.
 */
import { randomUUID } from "node:crypto";
import type { LoadGroup, LoadRequest } from "./load.ts";
import { post } from "./processes.ts";
import { call } from "./setup.ts";

export type Role = "owner" | "admin" | "member";
export interface WorldUser {
  email: string;
  password: string;
  role: Role;
  /** Index into the tenants; the owner creates it and invites the others, who accept. */
  tenant: number;
  invitationId?: string;
  token?: string;
  refreshToken?: string;
}
export interface World {
  users: WorldUser[];
  tenantIds: string[];
  /** Wall time of each set-up phase, in seconds. */
  seconds: { signUp: number; tenants: number; signIn: number; total: number };
  /**
   * Renews every user's access token through POST /v1/auth/refresh (no Argon2), so that tokens
   * minted early in a long set-up do not expire during the measurement (15 min by default).
   */
  refresh(): Promise<void>;
  /**
   * Each user reads its tenant once through the gateway (after `refresh`): the rounds then start
   * with every access token verified and every session and membership looked up, as on a gateway
   * that has been serving these users. A token is verified once per gateway instance in its
   * 15 minutes however many requests it carries; without this the first mixed window verifies
   * 2,000 ES256 signatures, ~16 µs per mixed request of the gateway's CPU in a 5-window run
   * (profiled 2026-11-26).
   */
  visit(): Promise<void>;
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const since = (t: number) => (performance.now() - t) / 1000;

/**
 * `tenants` tenants of `perTenant` users each: an owner, an admin, the rest members. Owners sign in
 * first (they create the tenants); the members sign in last, so every access token is as fresh as
 * it can be when the measurement starts (they live ACCESS_TOKEN_TTL_SECONDS, 15 min by default).
 */
export async function populate(
  gatewayUrl: string,
  tenants: number,
  perTenant: number,
  concurrency = 8,
): Promise<World> {
  const run = randomUUID().slice(0, 8);
  const users: WorldUser[] = [];
  for (let t = 0; t < tenants; t++)
    for (let i = 0; i < perTenant; i++)
      users.push({
        email: `bench-${run}-${t}-${i}@example.test`,
        password: `pw-${randomUUID()}`,
        role: i === 0 ? "owner" : i === 1 ? "admin" : "member",
        tenant: t,
      });
  const signIn = async (u: WorldUser) => {
    const tokens = await post(`${gatewayUrl}/v1/auth/signin`, { email: u.email, password: u.password });
    [u.token, u.refreshToken] = [tokens.access_token!, tokens.refresh_token!];
  };
  const started = performance.now();
  await eachLimited(users, concurrency, async (u) => {
    await post(`${gatewayUrl}/v1/auth/signup`, { email: u.email, password: u.password, name: `Bench ${u.role}` });
  });
  const signUp = since(started);

  const tenantsStarted = performance.now();
  const tenantIds: string[] = new Array(tenants);
  const owners = users.filter((u) => u.role === "owner");
  await eachLimited(owners, concurrency, async (owner) => {
    await signIn(owner);
    const { id } = await post(`${gatewayUrl}/v1/tenants`, { name: `Bench ${owner.tenant}` }, owner.token);
    tenantIds[owner.tenant] = id!;
    for (const u of users.slice(owner.tenant * perTenant + 1, (owner.tenant + 1) * perTenant)) {
      const invitation = await post(
        `${gatewayUrl}/v1/tenants/${id}/members`,
        { email: u.email, role: u.role },
        owner.token,
      );
      u.invitationId = invitation.invitation_id;
    }
  });
  const tenantsSeconds = since(tenantsStarted);

  const signInStarted = performance.now();
  await eachLimited(
    users.filter((u) => u.role !== "owner"),
    concurrency,
    async (u) => {
      await signIn(u);
      await post(`${gatewayUrl}/v1/users/me/invitations/${u.invitationId}/accept`, undefined, u.token);
    },
  );
  return {
    users,
    tenantIds,
    seconds: { signUp, tenants: tenantsSeconds, signIn: since(signInStarted), total: since(started) },
    refresh: () =>
      eachLimited(users, concurrency, async (u) => {
        const tokens = await post(`${gatewayUrl}/v1/auth/refresh`, { refresh_token: u.refreshToken });
        [u.token, u.refreshToken] = [tokens.access_token!, tokens.refresh_token!];
      }),
    visit: () =>
      eachLimited(users, concurrency, async (u) => {
        await call("GET", `${gatewayUrl}/v1/tenants/${tenantIds[u.tenant]}`, u.token);
      }),
  };
}

/**
 * Reads: every tenant route a user's role may read (the tenant, its members, its feature flags;
 * API keys for admins and owners), as that user. Writes: renaming the tenant and setting a feature
 * flag, as its owner or admin, each body drawn from a few so most writes are real changes (and
 * emit their event through the outbox). Reads and writes at `readsPerWrite`:1.
 */
export function mixedWorkload(world: World, readsPerWrite = 9): LoadGroup[] {
  const reads: LoadRequest[] = [];
  const writes: LoadRequest[] = [];
  for (const u of world.users) {
    const base = `/v1/tenants/${world.tenantIds[u.tenant]}`;
    const headers = { authorization: `Bearer ${u.token}` };
    for (const path of [base, `${base}/members`, `${base}/features`]) reads.push({ method: "GET", path, headers });
    if (u.role === "member") continue;
    reads.push({ method: "GET", path: `${base}/api-keys`, headers });
    const names = ["North", "South", "East", "West"].map((n) => JSON.stringify({ name: `Bench ${u.tenant} ${n}` }));
    writes.push({ method: "PATCH", path: base, headers, bodies: names });
    const flags = [true, false].map((on) => JSON.stringify({ marketplace_offers: on }));
    writes.push({ method: "PUT", path: `${base}/features`, headers, bodies: flags });
  }
  return [
    { name: "reads", weight: readsPerWrite, requests: reads },
    { name: "writes", weight: 1, requests: writes },
  ];
}
