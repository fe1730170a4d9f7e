import { hkdfSync } from "node:crypto";
import type { Keyring as CallerKeys } from "@flowstate/shared/auth/keyring";
import type { Database } from "@flowstate/shared/db/open-database";
import { schemaOf } from "@flowstate/shared/db/open-database";
import type { Logger } from "@flowstate/shared/log/logger";
import { type Argon2Params, createDummyHash, DEFAULT_ARGON2 } from "./crypto/password.ts";
import { tenantReads } from "./db/tenant-reads.ts";
import type { IdentityDeps } from "./deps.ts";
import { doorLeases } from "./doors/door-leases.ts";
import { DEFAULT_DOOR_PUSH, type DoorPushSettings, invalidationPusher } from "./doors/push-invalidations.ts";
import { type CimdOptions, ClientMetadataFetcher } from "./oauth/cimd/fetcher.ts";
import { firstPartyClient } from "./oauth/clients/first-party.ts";
import { canonicalResource } from "./oauth/resource.ts";
import type { KeyStore } from "./tokens/key-store.ts";
import { createKeyring } from "./tokens/keyring.ts";
import { DEFAULT_SIGN_IN_THROTTLE, type SignInThrottleSettings } from "./verbs/lib/sign-in-backoff.ts";

export interface BuildDepsOptions {
  orm: Database;
  logger: Logger;
  /** Keys per caller (ADR 0014, `startKeyring`). */
  callerKeys: CallerKeys;
  /** identity-svc's own secret (SIGN_IN_THROTTLE_SECRET_ID): no other process holds it. */
  signInThrottleSecret: string;
  keyStore: KeyStore;
  issuer: string;
  audience: string;
  accessTokenTtlSeconds: number;
  sessionTtlDays: number;
  keyActivationDelaySeconds: number;
  argon2?: Argon2Params;
  clock?: () => Date;
  /** Resources (RFC 8707) OAuth tokens may be issued for: the MCP server's canonical URI(s). */
  oauthResources?: readonly string[];
  cimd?: CimdOptions;
  /** RFC 7591 registrations per client address per hour (default 10). */
  oauthRegistrationsPerHour?: number;
  /** Sign-in backoff; defaults: 5 free failures, then 1 s doubling to 15 minutes. */
  signInThrottle?: Partial<SignInThrottleSettings>;
  /** Door leases and pushes (ADR 0011); defaults: 4 s lease, 1 s to ack. */
  doorPush?: Partial<DoorPushSettings>;
}

/** The one way to assemble IdentityDeps, shared by main.ts and the test harness. */
export async function buildDeps(o: BuildDepsOptions): Promise<IdentityDeps> {
  const params = o.argon2 ?? DEFAULT_ARGON2;
  const schema = schemaOf(o.orm);
  const leases = doorLeases(o.orm, schema);
  const doorSettings = { ...DEFAULT_DOOR_PUSH, ...o.doorPush };
  return {
    orm: o.orm,
    schema,
    tenantReads: tenantReads(o.orm, schema),
    logger: o.logger,
    callerKeys: o.callerKeys,
    keyStore: o.keyStore,
    keyring: await createKeyring(o.keyStore),
    accessToken: { issuer: o.issuer, audience: o.audience, ttlSeconds: o.accessTokenTtlSeconds },
    rotation: {
      activationDelayMs: o.keyActivationDelaySeconds * 1000,
      // A replaced key stays published one token lifetime (plus a minute of clock skew) after the switch.
      retireAfterMs: (o.accessTokenTtlSeconds + 60) * 1000,
    },
    sessionTtlMs: o.sessionTtlDays * 24 * 3600_000,
    password: { params, dummyHash: await createDummyHash(params) },
    signInThrottle: { ...DEFAULT_SIGN_IN_THROTTLE, ...o.signInThrottle },
    // A secret no other process holds (a key shared with callers would let any of them find an
    // address's row by its HMAC), narrowed to this one use (HKDF, RFC 5869). A new secret only
    // restarts the counts: the rows live a day.
    signInThrottleKey: Buffer.from(
      hkdfSync("sha256", o.signInThrottleSecret, "", "flowstate identity-svc sign-in throttle keys", 32),
    ),
    clock: o.clock ?? (() => new Date()),
    oauth: {
      issuer: o.issuer,
      resources: (o.oauthResources ?? []).map((r) => {
        const canonical = canonicalResource(r);
        if (canonical === null || canonical === o.audience) throw new Error(`not a usable OAuth resource: ${r}`);
        return canonical;
      }),
      firstParty: firstPartyClient(o.issuer, o.audience),
      codeTtlMs: 60_000,
      interactionTtlMs: 10 * 60_000,
      cimd: new ClientMetadataFetcher(o.cimd),
      registrationsPerHour: o.oauthRegistrationsPerHour ?? 10,
      unusedClientTtlMs: 24 * 3600_000,
    },
    doors: {
      leases,
      settings: doorSettings,
      push: invalidationPusher({ leases, keyring: o.callerKeys, settings: doorSettings }),
    },
  };
}
