import type { EventKey, TypeOf } from "../events/catalog.ts";

/** Where a service runs: every store and processing step in eu-central-1, the partner handler in us-east-1. */
export type ServiceRegion = "eu-central-1" | "us-east-1";

/** The AWS clients the platform's factory can build (shared/src/aws/clients.ts pins each one's region). */
export type AwsClientName =
  | "cloudformation"
  | "eventbridge"
  | "iam"
  | "kms"
  | "s3"
  | "secretsmanager"
  | "sesv2"
  | "sqs"
  | "sts"
  | "marketplace-catalog"
  | "marketplace-agreement"
  | "seller-sts"
  | "partner-eventbridge"
  | "partner-sqs";

/** A domain event type (`AccessRevoked`), every version of which a consumer receives. */
export type EventType = TypeOf<EventKey>;

/**
 * One process of the system as the platform sees it:
 * - `kind`: `door` (a public entry: edge-gateway, mcp-gateway), `service` (reached through a door
 *   or by other services only), `sandbox` (plays the seller's AWS account locally; not Flowstate).
 * - `port`: its default local port (`npm start`, compose); `metricsPort`: the internal /metrics
 *   listener of a door (its main port is public, so the scrape is served apart).
 * - `region`: where it runs in production; `database`: it owns a PostgreSQL schema.
 * - `consumes`: the domain event types routed to its queue (`<prefix>-<stage>-<name>`, with a DLQ
 *   and a bus rule); "all" for every Flowstate event; none: no queue at all.
 * - `aws`: the AWS clients it may build (the client factory refuses any other).
 */
export interface ServiceEntry {
  kind: "door" | "service" | "sandbox";
  port: number;
  metricsPort?: number;
  region: ServiceRegion;
  database: boolean;
  consumes: readonly EventType[] | "all";
  aws: readonly AwsClientName[];
}

const entry = <const E extends ServiceEntry>(e: E): E => e;

/**
 * Every process of Flowstate, once. The local stack (its list, ports and queues), the bootstrap's
 * rules and queues, the consumers' declarations, the gateway's upstreams and the residency manifest
 * all derive from this table; nothing else lists services. Adding a service starts here
 * (docs/adding-a-service.md).
 */
export const serviceCatalog = {
  "seller-sandbox": entry({
    kind: "sandbox",
    port: 8090,
    region: "us-east-1",
    database: false,
    consumes: [],
    aws: [],
  }),
  "audit-svc": entry({
    kind: "service",
    port: 8085,
    region: "eu-central-1",
    database: true,
    consumes: "all",
    aws: ["s3", "secretsmanager", "sqs"],
  }),
  "connector-svc": entry({
    kind: "service",
    port: 8082,
    region: "eu-central-1",
    database: true,
    consumes: ["TenantSoftDeleted"],
    aws: [
      "eventbridge",
      "kms",
      "secretsmanager",
      "sqs",
      "sts",
      "marketplace-catalog",
      "marketplace-agreement",
      "seller-sts",
    ],
  }),
  "identity-svc": entry({
    kind: "service",
    port: 8081,
    region: "eu-central-1",
    database: true,
    consumes: [],
    aws: ["eventbridge", "secretsmanager"],
  }),
  // Notifications (issue 25, ADR 0017): domain events to each tenant's webhooks and Slack.
  "notify-svc": entry({
    kind: "service",
    port: 8091,
    region: "eu-central-1",
    database: true,
    consumes: [
      "OfferChangeSucceeded",
      "OfferChangeFailed",
      "PurchaseAgreementCreated",
      "PurchaseAgreementChanged",
      "PartnerEventReceived",
      "ConnectorAttentionNeeded",
      "TenantSoftDeleted",
    ],
    // sesv2: the e-mail to a tenant's admins when one of its endpoints is disabled.
    aws: ["secretsmanager", "sesv2", "sqs"],
  }),
  "offers-svc": entry({
    kind: "service",
    port: 8083,
    region: "eu-central-1",
    database: true,
    consumes: ["ConnectorConnected", "ConnectorDisconnected", "TenantSoftDeleted"],
    aws: ["eventbridge", "secretsmanager", "sqs", "sts", "marketplace-catalog", "marketplace-agreement", "seller-sts"],
  }),
  "partner-inbound": entry({
    kind: "service",
    port: 8087,
    region: "us-east-1",
    database: false,
    consumes: ["ConnectorConnected", "ConnectorDisconnected"],
    aws: ["eventbridge", "secretsmanager", "sqs", "partner-eventbridge", "partner-sqs"],
  }),
  "partner-svc": entry({
    kind: "service",
    port: 8088,
    region: "eu-central-1",
    database: true,
    consumes: ["PartnerEventReceived", "TenantSoftDeleted"],
    aws: ["secretsmanager", "sqs"],
  }),
  "privacy-svc": entry({
    kind: "service",
    port: 8084,
    region: "eu-central-1",
    database: true,
    consumes: ["AccountDeleted", "ExportCompleted", "ExportRequested"],
    aws: ["eventbridge", "s3", "secretsmanager", "sesv2", "sqs"],
  }),
  // The seller console (ADR 0015): pages at /app on the edge gateway's origin; its own table holds
  // sessions only, and it calls the public API through the gateway like any client.
  "web-console": entry({
    kind: "service",
    port: 8089,
    region: "eu-central-1",
    database: true,
    consumes: [],
    aws: ["secretsmanager"],
  }),
  "edge-gateway": entry({
    kind: "door",
    port: 8080,
    metricsPort: 9080,
    region: "eu-central-1",
    database: false,
    consumes: ["AccessRevoked"],
    aws: ["secretsmanager", "sqs"],
  }),
  "mcp-gateway": entry({
    kind: "door",
    port: 8086,
    metricsPort: 9086,
    region: "eu-central-1",
    database: false,
    consumes: ["AccessRevoked"],
    aws: ["eventbridge", "secretsmanager", "sqs"],
  }),
} as const satisfies Record<string, ServiceEntry>;

export type ServiceCatalog = typeof serviceCatalog;
export type ServiceName = keyof ServiceCatalog;
/** The Flowstate services (the sandbox is the seller's account, not one of them). */
export type FlowstateServiceName = {
  [S in ServiceName]: ServiceCatalog[S]["kind"] extends "sandbox" ? never : S;
}[ServiceName];

/** The event types a service consumes (never for "all": such a consumer takes every type). */
export type ConsumedBy<S extends ServiceName> = ServiceCatalog[S]["consumes"] extends readonly (infer T extends
  EventType)[]
  ? T
  : never;

/**
 * Every process in start-up order: the sandbox (the seller's account), the services, then the
 * doors (they check their upstreams' health), each group by name.
 */
export const serviceNames: readonly ServiceName[] = (Object.keys(serviceCatalog) as ServiceName[]).sort((a, b) => {
  const rank = (n: ServiceName) => ({ sandbox: 0, service: 1, door: 2 })[serviceCatalog[n].kind];
  return rank(a) - rank(b) || a.localeCompare(b);
});

/** The Flowstate services, by name (no sandbox). */
export const flowstateServiceNames = serviceNames.filter(
  (n): n is FlowstateServiceName => serviceCatalog[n].kind !== "sandbox",
);

/** The services with a queue: those that consume at least one event type. */
export const consumingServices = flowstateServiceNames.filter((n) => {
  const consumes = serviceCatalog[n].consumes;
  return consumes === "all" || consumes.length > 0;
});

type Underscored<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Underscored<B>}` : S;

/** The variable naming where service `S` listens (see `urlVariable`), as a type: config schemas keyed by it stay typed. */
export type UrlVariable<S extends ServiceName> = S extends "seller-sandbox"
  ? "MARKETPLACE_ENDPOINT_URL"
  : `${Uppercase<Underscored<S extends `${infer Base}-svc` ? Base : S>>}_URL`;

/**
 * The variable that tells other processes where a service listens: identity-svc → IDENTITY_URL,
 * edge-gateway → EDGE_GATEWAY_URL. One rule, so `npm start`, docker-compose, the production task
 * and every config schema that reads one (the gateway's upstreams, privacy-svc's participants)
 * agree on the name. The sandbox is the seller's AWS account, so the services know it as their
 * marketplace endpoint.
 *
 * @example
 * urlVariable("connector-svc"); // "CONNECTOR_URL"
 */
export function urlVariable<S extends ServiceName>(service: S): UrlVariable<S> {
  if (service === "seller-sandbox") return "MARKETPLACE_ENDPOINT_URL" as UrlVariable<S>;
  return `${service.replace(/-svc$/, "").replaceAll("-", "_").toUpperCase()}_URL` as UrlVariable<S>;
}
