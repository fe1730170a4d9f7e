import { createRequire } from "node:module";
import type { AwsClientName } from "@flowstate/contracts/services/catalog";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";

/**
 * Data residency lives here and nowhere else: every client that can touch Flowstate's data is built
 * in eu-central-1; only the seller-facing Marketplace Catalog and Agreement APIs and the STS call
 * into the seller's account use us-east-1 (the Catalog API exists only there), and so does the
 * partner-program inbound handler, which only reads its us-east-1 queue and keeps its bus policy
 * (AWS Partner Central publishes to us-east-1 only). There is no region parameter on purpose, and a
 * caller that smuggles one in is refused. `residency-manifest.ts` lists all of this for the README.
 */
export const DATA_REGION = "eu-central-1";
export const MARKETPLACE_REGION = "us-east-1";
export const PARTNER_REGION = "us-east-1";

/**
 * Each client's package is loaded when the process first builds that client, not when this module
 * is imported: every service imports this factory and builds at most seven of its fourteen clients
 * (its `aws` entry in the services catalog), and loading all eleven packages cost each service's
 * boot a few hundred milliseconds of CPU (the suite starts ~200 Node processes; a container's cold
 * start pays it too). `require`, not `import()`, keeps the factory synchronous: under Node the SDK's
 * packages are CommonJS (no "exports"; "main" is dist-cjs), so a module that imports a command from
 * the same package statically gets the same module instance, and a client built here takes its
 * commands.
 */
const load = createRequire(import.meta.url);

const dataClients = {
  cloudformation: () =>
    (load("@aws-sdk/client-cloudformation") as typeof import("@aws-sdk/client-cloudformation")).CloudFormationClient,
  eventbridge: () =>
    (load("@aws-sdk/client-eventbridge") as typeof import("@aws-sdk/client-eventbridge")).EventBridgeClient,
  iam: () => (load("@aws-sdk/client-iam") as typeof import("@aws-sdk/client-iam")).IAMClient,
  kms: () => (load("@aws-sdk/client-kms") as typeof import("@aws-sdk/client-kms")).KMSClient,
  s3: () => (load("@aws-sdk/client-s3") as typeof import("@aws-sdk/client-s3")).S3Client,
  secretsmanager: () =>
    (load("@aws-sdk/client-secrets-manager") as typeof import("@aws-sdk/client-secrets-manager")).SecretsManagerClient,
  sesv2: () => (load("@aws-sdk/client-sesv2") as typeof import("@aws-sdk/client-sesv2")).SESv2Client,
  sqs: () => (load("@aws-sdk/client-sqs") as typeof import("@aws-sdk/client-sqs")).SQSClient,
  sts: () => (load("@aws-sdk/client-sts") as typeof import("@aws-sdk/client-sts")).STSClient,
} as const;

const marketplaceClients = {
  "marketplace-catalog": () =>
    (load("@aws-sdk/client-marketplace-catalog") as typeof import("@aws-sdk/client-marketplace-catalog"))
      .MarketplaceCatalogClient,
  "marketplace-agreement": () =>
    (load("@aws-sdk/client-marketplace-agreement") as typeof import("@aws-sdk/client-marketplace-agreement"))
      .MarketplaceAgreementClient,
  "seller-sts": dataClients.sts,
} as const;

/**
 * The partner-program inbound side (services/partner-inbound and the bootstrap of its bus): the
 * us-east-1 bus that tenants forward Partner Central events to, and the queue behind it. Nothing
 * here stores event content: the queue holds a message until partner-inbound has written it to
 * eu-central-1 (the residency test checks that partner-inbound has no other store).
 */
const partnerClients = {
  "partner-eventbridge": dataClients.eventbridge,
  "partner-sqs": dataClients.sqs,
} as const;

export type DataClientName = keyof typeof dataClients;
/** Every data client the factory can build (all pinned to DATA_REGION). */
export const DATA_CLIENT_NAMES = Object.keys(dataClients) as DataClientName[];
export type MarketplaceClientName = keyof typeof marketplaceClients;
/** Every marketplace client the factory can build (all pinned to MARKETPLACE_REGION). */
export const MARKETPLACE_CLIENT_NAMES = Object.keys(marketplaceClients) as MarketplaceClientName[];
export type PartnerClientName = keyof typeof partnerClients;
/** Every partner-inbound client the factory can build (all pinned to PARTNER_REGION). */
export const PARTNER_CLIENT_NAMES = Object.keys(partnerClients) as PartnerClientName[];
type DataClient<N extends DataClientName> = InstanceType<ReturnType<(typeof dataClients)[N]>>;
type PartnerClient<N extends PartnerClientName> = InstanceType<ReturnType<(typeof partnerClients)[N]>>;
type MarketplaceClient<N extends MarketplaceClientName> = InstanceType<ReturnType<(typeof marketplaceClients)[N]>>;
type Credentials = AwsCredentialIdentity | AwsCredentialIdentityProvider;

export interface AwsClientOptions {
  /** Local emulator (moto, LocalStack) for every data client; unset on real AWS. */
  endpoint?: string | undefined;
  /** The seller-account sandbox locally; unset on real AWS. */
  marketplaceEndpoint?: string | undefined;
  /** Flowstate's own credentials; the default provider chain when unset. */
  credentials?: Credentials | undefined;
  /**
   * The clients this process may build (a service: its `aws` entry in the services catalog, which
   * `serviceBoot` passes); any other is refused, so the catalog, and the residency table rendered
   * from it, cannot under-state what a service touches. Unset: every client (tests, benches).
   */
  allowed?: readonly AwsClientName[] | undefined;
}

export class ResidencyViolation extends Error {
  override name = "ResidencyViolation";
}

function refuseRegion(extra: object | undefined): void {
  if (extra && "region" in extra) {
    throw new ResidencyViolation("AWS client regions are fixed by the client factory and cannot be overridden");
  }
}

/**
 * Builds the AWS clients of one process. Data clients are cached (one per name); marketplace
 * clients are built per call because each carries one tenant's assumed-role credentials.
 *
 * @example
 * const aws = createAwsClients({ endpoint: config.AWS_ENDPOINT_URL });
 * await aws.data("sqs").send(new ReceiveMessageCommand({ QueueUrl }));
 * const catalog = aws.marketplace("marketplace-catalog", assumedCredentials);
 */
export function createAwsClients(options: AwsClientOptions = {}) {
  refuseRegion(options);
  const allowed = options.allowed && new Set<string>(options.allowed);
  const refuseUndeclared = (name: string) => {
    if (allowed && !allowed.has(name))
      throw new ResidencyViolation(`${name} is not among this service's clients in the services catalog`);
  };
  const cache = new Map<DataClientName | PartnerClientName, unknown>();
  const common = (endpoint: string | undefined, credentials: Credentials | undefined) => ({
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(credentials ? { credentials } : {}),
    maxAttempts: 3,
    // The SDK's default has no timeouts: a call the endpoint never answers (a loaded emulator, a
    // half-open connection) would hold its caller, and any transaction around it, forever. 30 s is
    // above SQS's 20 s long poll; a timed-out call throws and is retried like any other failure.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    // The SDK would otherwise honour AWS_ENDPOINT_URL(_<SERVICE>) from the environment for every
    // client, sending marketplace calls to the data emulator: endpoints are decided here only.
    ignoreConfiguredEndpointUrls: true,
  });

  return {
    data<N extends DataClientName>(name: N): DataClient<N> {
      const hit = cache.get(name);
      if (hit) return hit as DataClient<N>;
      // hasOwn, not a lookup: "constructor" or "toString" smuggled in through a cast would otherwise
      // reach Object.prototype and build something that is not one of the listed clients.
      if (!Object.hasOwn(dataClients, name)) throw new ResidencyViolation(`${String(name)} is not a data client`);
      refuseUndeclared(name);
      const Ctor = dataClients[name]() as unknown as new (c: object) => DataClient<N>;
      const client = new Ctor({ region: DATA_REGION, ...common(options.endpoint, options.credentials) });
      cache.set(name, client);
      return client;
    },
    /** A us-east-1 client of the partner-program inbound side (cached like data clients; same endpoint). */
    partner<N extends PartnerClientName>(name: N): PartnerClient<N> {
      const hit = cache.get(name);
      if (hit) return hit as PartnerClient<N>;
      if (!Object.hasOwn(partnerClients, name)) throw new ResidencyViolation(`${String(name)} is not a partner client`);
      refuseUndeclared(name);
      const Ctor = partnerClients[name]() as unknown as new (c: object) => PartnerClient<N>;
      const client = new Ctor({ region: PARTNER_REGION, ...common(options.endpoint, options.credentials) });
      cache.set(name, client);
      return client;
    },
    marketplace<N extends MarketplaceClientName>(name: N, credentials?: Credentials): MarketplaceClient<N> {
      if (!Object.hasOwn(marketplaceClients, name))
        throw new ResidencyViolation(`${String(name)} is not a marketplace client`);
      refuseUndeclared(name);
      const Ctor = marketplaceClients[name]() as unknown as new (c: object) => MarketplaceClient<N>;
      return new Ctor({
        region: MARKETPLACE_REGION,
        ...common(options.marketplaceEndpoint, credentials ?? options.credentials),
      });
    },
  };
}

export type AwsClients = ReturnType<typeof createAwsClients>;
