import { createHash } from "node:crypto";
import type { MarketplaceAgreementClient } from "@aws-sdk/client-marketplace-agreement";
import type { MarketplaceCatalogClient } from "@aws-sdk/client-marketplace-catalog";
import { AssumeRoleCommand, type STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import type { AwsClients } from "../aws/clients.ts";
import type { Logger } from "../log/logger.ts";
import { PRINCIPALS, type Principal, type PrincipalCredentials } from "./principals.ts";
import { classifyUpstream, type UpstreamFailure } from "./upstream-errors.ts";

/** What reaching one tenant's seller account takes: its role and its external ID (a secret). */
export interface SellerConnector {
  tenantId: string;
  roleArn: string;
  externalId: string;
}

/** A tenant's Marketplace clients for one principal; the credentials inside are never handed out. */
export interface SellerClients {
  catalog: MarketplaceCatalogClient;
  agreement: MarketplaceAgreementClient;
  /** The seller account the role lives in (from the assumed-role ARN). */
  accountId: string;
}

/** AssumeRole into the tenant's role failed; `failure.name` is AWS's error name, never its message. */
export class AssumeRoleFailed extends Error {
  override name = "AssumeRoleFailed";
  readonly failure: UpstreamFailure;
  readonly principal: Principal;
  constructor(principal: Principal, failure: UpstreamFailure, cause: unknown) {
    super(`AssumeRole as ${principal} failed: ${failure.name}`, { cause });
    this.failure = failure;
    this.principal = principal;
  }
}

export interface SellerSessionsOptions {
  aws: AwsClients;
  /** How this process signs as each Flowstate principal (static keys locally, role chaining on AWS). */
  principals: PrincipalCredentials;
  logger: Logger;
  /** Session length asked of STS (default 3600, the role's default MaxSessionDuration). */
  durationSeconds?: number;
  /** Credentials are renewed this long before they expire (default 5 minutes, as the SDK does). */
  refreshBeforeMs?: number;
  /** Cached sessions, least recently used dropped first (default 10 000). */
  max?: number;
  now?: () => number;
}

interface Session extends SellerClients {
  fingerprint: string;
  renewAt: number;
}

const digest = (c: SellerConnector) => `${c.roleArn}\n${createHash("sha256").update(c.externalId).digest("base64url")}`;
const keyOf = (tenantId: string, principal: Principal) => `${tenantId}\n${principal}`;
const accountOf = (assumedRoleArn: string | undefined) => /^arn:[\w-]+:sts::(\d{12}):/.exec(assumedRoleArn ?? "")?.[1];

export type SellerSessions = ReturnType<typeof createSellerSessions>;

/**
 * A tenant's Marketplace Catalog and Agreement clients (us-east-1, from the residency-aware client
 * factory) for one Flowstate principal. The tenant's role is assumed with its external ID once
 * and the session is cached per tenant and principal until `refreshBeforeMs` before it expires;
 * concurrent first calls share one AssumeRole. Throttling and 5xx are retried by the SDK's
 * standard strategy (3 attempts, exponential backoff with full jitter) on every client built here.
 * Credentials live only in this cache: never logged, never returned, dropped by `drop(tenantId)`
 * (disconnect, TenantSoftDeleted) and when the connector's role or external ID changes.
 *
 * @example
 * const sessions = createSellerSessions({ aws, principals, logger });
 * const products = await sessions.withClients(connector, principalForChannel(assertion.channel), ({ catalog }) =>
 *   catalog.send(new ListEntitiesCommand({ Catalog: "AWSMarketplace", EntityType: "SaaSProduct" })));
 */
export function createSellerSessions(options: SellerSessionsOptions) {
  const { aws, logger } = options;
  const now = options.now ?? Date.now;
  const durationSeconds = options.durationSeconds ?? 3600;
  const refreshBeforeMs = options.refreshBeforeMs ?? 300_000;
  const max = options.max ?? 10_000;
  const log = logger.child({ component: "seller-sessions" });
  const sessions = new Map<string, Session>();
  const pending = new Map<string, { fingerprint: string; token: object; promise: Promise<Session> }>();
  const stsClients = new Map<Principal, STSClient>();
  const stats = { assumeRoleCalls: 0, assumeRoleFailures: 0 };

  const sts = (principal: Principal) => {
    let client = stsClients.get(principal);
    if (!client) {
      client = aws.marketplace("seller-sts", options.principals[principal]);
      stsClients.set(principal, client);
    }
    return client;
  };

  const destroy = (s: Session) => {
    s.catalog.destroy();
    s.agreement.destroy();
  };

  /** One AssumeRole; `externalId: null` sends none (a probe of the trust policy). */
  async function assume(
    connector: SellerConnector,
    principal: Principal,
    externalId: string | null,
  ): Promise<{ credentials: AwsCredentialIdentity; accountId: string }> {
    stats.assumeRoleCalls++;
    try {
      const out = await sts(principal).send(
        new AssumeRoleCommand({
          RoleArn: connector.roleArn,
          RoleSessionName: `${principal}-${connector.tenantId}`.slice(0, 64),
          ...(externalId === null ? {} : { ExternalId: externalId }),
          DurationSeconds: durationSeconds,
        }),
      );
      const c = out.Credentials;
      const accountId = accountOf(out.AssumedRoleUser?.Arn) ?? accountOf(connector.roleArn.replace(":iam::", ":sts::"));
      if (!c?.AccessKeyId || !c.SecretAccessKey || !accountId) throw new Error("STS answered without credentials");
      return {
        credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken },
        accountId,
      };
    } catch (err) {
      stats.assumeRoleFailures++;
      const failure = classifyUpstream(err);
      log.info({ tenant_id: connector.tenantId, principal, upstream_error: failure.name }, "AssumeRole failed");
      throw new AssumeRoleFailed(principal, failure, err);
    }
  }

  function store(key: string, session: Session): void {
    const old = sessions.get(key);
    if (old) destroy(old);
    sessions.delete(key);
    sessions.set(key, session);
    if (sessions.size > max) {
      const [oldestKey, oldest] = sessions.entries().next().value as [string, Session];
      sessions.delete(oldestKey);
      destroy(oldest);
    }
  }

  function open(connector: SellerConnector, principal: Principal): Promise<Session> {
    const key = keyOf(connector.tenantId, principal);
    const fingerprint = digest(connector);
    const running = pending.get(key);
    if (running?.fingerprint === fingerprint) return running.promise;
    const token = {};
    const promise = (async () => {
      const { credentials, accountId } = await assume(connector, principal, connector.externalId);
      const session: Session = {
        catalog: aws.marketplace("marketplace-catalog", credentials),
        agreement: aws.marketplace("marketplace-agreement", credentials),
        accountId,
        fingerprint,
        renewAt: now() + durationSeconds * 1000 - refreshBeforeMs,
      };
      // A drop() (disconnect) while this was in flight removed the pending entry: store nothing.
      if (pending.get(key)?.token === token) store(key, session);
      else destroy(session);
      log.debug({ tenant_id: connector.tenantId, principal, account_id: accountId }, "seller session opened");
      return session;
    })().finally(() => {
      if (pending.get(key)?.token === token) pending.delete(key);
    });
    pending.set(key, { fingerprint, token, promise });
    return promise;
  }

  async function clients(connector: SellerConnector, principal: Principal): Promise<SellerClients> {
    const key = keyOf(connector.tenantId, principal);
    const hit = sessions.get(key);
    if (hit && hit.fingerprint === digest(connector) && now() < hit.renewAt) return hit;
    return open(connector, principal);
  }

  function forget(tenantId: string, principal: Principal): void {
    const key = keyOf(tenantId, principal);
    const s = sessions.get(key);
    if (s) destroy(s);
    sessions.delete(key);
    pending.delete(key);
  }

  return {
    clients,

    /**
     * The tenant's cached, unexpired session for `principal`, without opening one, and a check
     * that it was opened for a given connector (role ARN and external ID). For a caller that
     * starts a read while it confirms the connector elsewhere (connector-svc's product listing).
     */
    peek(
      tenantId: string,
      principal: Principal,
    ): { clients: SellerClients; opensFor(c: SellerConnector): boolean } | undefined {
      const hit = sessions.get(keyOf(tenantId, principal));
      if (!hit || now() >= hit.renewAt) return undefined;
      return { clients: hit, opensFor: (c) => c.tenantId === tenantId && digest(c) === hit.fingerprint };
    },

    /**
     * Runs `fn` with the tenant's clients. When the seller's account calls the session expired
     * (its clock is ahead of ours, or the role's session was revoked) the session is renewed and
     * `fn` runs once more.
     */
    async withClients<T>(
      connector: SellerConnector,
      principal: Principal,
      fn: (clients: SellerClients) => Promise<T>,
    ): Promise<T> {
      try {
        return await fn(await clients(connector, principal));
      } catch (err) {
        if (err instanceof AssumeRoleFailed || classifyUpstream(err).kind !== "expired") throw err;
        forget(connector.tenantId, principal);
        return fn(await clients(connector, principal));
      }
    },

    /**
     * A fresh AssumeRole (connect, health): with the connector's external ID it also renews the
     * cached session. With `externalId` (another value, or `null` for none) it only tells whether
     * the role trusts the principal with that value, and keeps nothing: connect and health ask
     * with a random one, which must fail, to catch a trust policy open to a confused deputy.
     */
    async probe(
      connector: SellerConnector,
      principal: Principal,
      probeOptions: { externalId?: string | null } = {},
    ): Promise<{ ok: true; accountId: string } | { ok: false; failure: UpstreamFailure }> {
      try {
        if (probeOptions.externalId !== undefined) {
          const { accountId } = await assume(connector, principal, probeOptions.externalId);
          return { ok: true, accountId };
        }
        forget(connector.tenantId, principal);
        const { accountId } = await open(connector, principal);
        return { ok: true, accountId };
      } catch (err) {
        if (err instanceof AssumeRoleFailed) return { ok: false, failure: err.failure };
        throw err;
      }
    },

    /** Forgets every session of the tenant (disconnect, TenantSoftDeleted); in-flight ones are not stored. */
    drop(tenantId: string): void {
      for (const principal of PRINCIPALS) forget(tenantId, principal);
    },

    stats: () => ({ ...stats, cached: sessions.size }),

    close(): void {
      for (const s of sessions.values()) destroy(s);
      sessions.clear();
      pending.clear();
      for (const c of stsClients.values()) c.destroy();
      stsClients.clear();
    },
  };
}
