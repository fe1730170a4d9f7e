/**
 * What several bench files set up the same way: the bench database, moto with the bootstrap's
 * resources, a tenant onboarded as a seller through the gateway, and a ListEntities request signed
 * once for the sandbox (the baseline a gateway path is compared with).
 */
import { randomUUID } from "node:crypto";
import { gatewayCaller } from "@flowstate/connector-svc/testing/gateway-caller";
import { sellerAccount } from "@flowstate/connector-svc/testing/seller-account";
import { Sha256 } from "@flowstate/seller-sandbox/testing/signed-fetch";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { withConnection } from "@flowstate/shared/db/with-connection";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity } from "@smithy/types";
import { deployConnectorStack } from "../../deploy/connector-role/deploy.ts";
import { motoSellerAccount } from "../../deploy/connector-role/moto-account.ts";
import { bootstrap } from "../../deploy/local/bootstrap.ts";
import { stackEnvironment } from "../../deploy/local/environment.ts";
import { startMoto } from "../../deploy/local/moto.ts";
import { ensureDatabase, ensurePostgres } from "../../deploy/local/postgres.ts";

/**
 * BENCH_DATABASE_URL, or database `flowstate_bench` on the local PostgreSQL, empty: a database
 * named `flowstate_bench…` is dropped and created afresh, so every run measures the same amount of
 * data. (Until 2026-11-26 it was kept: each 40-gateway run added its 2,000 users and 500 tenants to
 * the last run's, and its figures drifted with them.) Any other database is only created when missing.
 */
export async function benchDatabase(): Promise<string> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/flowstate_bench";
  await ensurePostgres(databaseUrl);
  await ensureDatabase(databaseUrl, { fresh: new URL(databaseUrl).pathname.startsWith("/flowstate_bench") });
  return databaseUrl;
}

/**
 * `VACUUM ANALYZE` of the bench database once a bench's set-up is done, as autovacuum would have
 * by then in production. This machine's PostgreSQL runs with autovacuum off (its conf.d), so the
 * tables were never analyzed: the planner planned the hot statements without statistics (the
 * grouped tenant read scanned the whole tenant table), and which plan a pooled connection kept
 * depended on when it first prepared the statement.
 */
export async function settleDatabase(databaseUrl: string): Promise<void> {
  await withConnection(databaseUrl, (em) => em.execute("VACUUM ANALYZE"));
}

/** A fresh moto with what the bootstrap creates for prefix `flowstate`, stage `dev`; the caller stops `moto`. */
export async function benchAws(motoOptions?: Parameters<typeof startMoto>[0]) {
  const moto = await startMoto(motoOptions);
  const aws = createAwsClients({
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
  });
  const prefix = "flowstate";
  const stage = "dev";
  const { outputs } = await bootstrap({ aws, prefix, stage, mailFrom: "no-reply@flowstate.local" });
  return { moto, aws, prefix, stage, outputs };
}

/** A JSON call with an optional bearer token; throws on a non-2xx, `{}` for a 204. */
export async function call(method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
}

/**
 * A person signed up and in through the gateway, with a tenant of their own whose marketplace flag
 * is on: where every marketplace bench starts.
 */
export async function benchTenant(gatewayUrl: string, name = "Bench") {
  const email = `bench-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  await call("POST", `${gatewayUrl}/v1/auth/signup`, undefined, { email, password, name: "Bench" });
  const token = (await call("POST", `${gatewayUrl}/v1/auth/signin`, undefined, { email, password }))
    .access_token as string;
  const tenantId = (await call("POST", `${gatewayUrl}/v1/tenants`, token, { name })).id as string;
  const tenant = `${gatewayUrl}/v1/tenants/${tenantId}`;
  await call("PUT", `${tenant}/features`, token, { marketplace_offers: true });
  return { email, password, token, tenantId, tenant };
}

/**
 * A tenant onboarded as a seller would, through the gateway: {@link benchTenant}, the onboarding
 * bundle, and the connector stack deployed in a moto seller account from the bundle's parameters.
 * Connecting the role is left to the caller (some count what connecting costs).
 */
export async function onboardSeller(gatewayUrl: string, motoEndpoint: string) {
  const { email, password, token, tenantId, tenant } = await benchTenant(gatewayUrl);
  const bundle = (await call("GET", `${tenant}/integrations/marketplace/onboarding`, token)) as {
    external_id: string;
    cloudformation: { parameters: { FlowstatePrincipalArns: string } };
  };
  const seller = await motoSellerAccount(motoEndpoint);
  const roleArn = await deployConnectorStack({
    cloudformation: seller.cloudformation,
    stackName: "flowstate-marketplace-connector",
    principalArns: bundle.cloudformation.parameters.FlowstatePrincipalArns.split(","),
    externalId: bundle.external_id,
  });
  return { email, password, token, tenantId, tenant, externalId: bundle.external_id, roleArn };
}

/**
 * A tenant connected to an account of the seller sandbox the way the whole-stack tests connect one
 * (connector-svc's `sellerAccount`: the bundle's template applied in a fresh account of the
 * emulator at AWS_ENDPOINT_URL, whose calls into AWS Marketplace the sandbox answers), then POST
 * connect. `seller.control` is the sandbox account's control URL (clock, timing, call counters).
 */
export async function connectedSandboxSeller(gatewayUrl: string, sandboxUrl: string, name?: string) {
  const { token, tenantId, tenant } = await benchTenant(gatewayUrl, name);
  const caller = { ...gatewayCaller(gatewayUrl), sandbox: { endpoint: sandboxUrl } };
  const seller = await sellerAccount(caller, {}, { tenantId, token });
  await call("POST", `${tenant}/integrations/marketplace`, token, { role_arn: seller.roleArn });
  return { token, tenantId, tenant, seller };
}

/** A ListEntities request to the sandbox at `url`, signed once with `credentials`: replayable as is. */
export async function signedListEntities(url: string, credentials: AwsCredentialIdentity, input: object) {
  const u = new URL(url);
  const body = JSON.stringify(input);
  const signer = new SignatureV4({ credentials, region: "us-east-1", service: "aws-marketplace", sha256: Sha256 });
  const signed = await signer.sign({
    method: "POST",
    protocol: u.protocol,
    hostname: u.hostname,
    port: Number(u.port),
    path: "/ListEntities",
    query: {},
    headers: { host: u.host, "content-type": "application/json" },
    body,
  });
  return { headers: signed.headers as Record<string, string>, body };
}

/** The environment every service of a bench stack shares: moto, the bootstrap's names, the bench database. */
export function benchServiceEnv(
  stack: Pick<Awaited<ReturnType<typeof benchAws>>, "moto" | "outputs" | "prefix" | "stage">,
  databaseUrl: string,
  logLevel = "warn",
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    AWS_ACCESS_KEY_ID: "testing",
    AWS_SECRET_ACCESS_KEY: "testing",
    ...stackEnvironment(stack.outputs, stack.prefix, stack.stage),
    NODE_ENV: "production",
    LOG_LEVEL: logLevel,
    STAGE: stack.stage,
    SERVICE_PREFIX: stack.prefix,
    DATABASE_URL: databaseUrl,
    AWS_ENDPOINT_URL: stack.moto.endpoint,
  };
}

const unlimited = "1000000000";
/** The gateway's per-credential and per-tenant limits lifted: one account hammers one tenant in a bench. */
export const unlimitedRatesEnv = {
  RATE_LIMIT_CREDENTIAL_PER_SEC: unlimited,
  RATE_LIMIT_CREDENTIAL_BURST: unlimited,
  RATE_LIMIT_TENANT_PER_SEC: unlimited,
  RATE_LIMIT_TENANT_BURST: unlimited,
};
/** ... and the anonymous one, for benches whose sign-ups all come from one address. */
export const unlimitedAnonymousEnv = { RATE_LIMIT_ANONYMOUS_PER_SEC: unlimited, RATE_LIMIT_ANONYMOUS_BURST: unlimited };
