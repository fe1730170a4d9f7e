import { type FlowstateServiceName, urlVariable } from "@flowstate/contracts/services/catalog";
import { DEFAULT_OUTBOX_LAG_INTERVAL_MS } from "@flowstate/shared/outbox/lag-metric";
import { BUCKET_VARIABLES, type DeploymentNames, deployedServices, entryOf, relayServices } from "./services.ts";
import type { DeploySettings } from "./settings.ts";

/** Where a eu-central-1 service answers inside the VPC: its Cloud Map name in the private namespace. */
export const internalUrl = (names: DeploymentNames, service: FlowstateServiceName) =>
  `http://${service}.${names.namespace}:${entryOf(service).port}`;

/**
 * The environment of one service's container: the runtime contract (README "Configuration") with
 * production values. Every service gets every other's URL variable, as `npm start` gives them;
 * each reads the ones its config names. DATABASE_URL is assembled in the container from the
 * login's secret (container/entry.ts), so no password is ever in the task definition.
 */
export function serviceEnvironment(
  s: DeploySettings,
  names: DeploymentNames,
  service: FlowstateServiceName,
  connectorUrl: string,
): Record<string, string> {
  const def = names.definition;
  const entry = entryOf(service);
  const api = `https://${s.apiDomain}`;
  const mcp = `https://${s.mcpDomain}`;
  const urls = Object.fromEntries(
    deployedServices
      .filter((other) => other !== service && entryOf(other).region === "eu-central-1")
      .map((other) => [urlVariable(other), internalUrl(names, other)]),
  );
  return {
    STAGE: s.stage,
    SERVICE_PREFIX: s.prefix,
    HOST: "0.0.0.0",
    PORT: String(entry.port),
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    EVENT_BUS_NAME: def.busName,
    SIGNING_KEYS_SECRET_ID: names.signingKeysSecretId,
    SIGN_IN_THROTTLE_SECRET_ID: def.secrets.find((x) => x.readers.includes("identity-svc"))!.name,
    DATA_KMS_KEY_ID: def.keyAlias,
    ...Object.fromEntries(def.buckets.map((b) => [BUCKET_VARIABLES[b.role], b.name])),
    MAIL_FROM: def.mailFrom,
    FLOWSTATE_ACCOUNT_ID: s.account,
    ...urls,
    // partner-inbound runs in us-east-1 and reaches connector-svc through PrivateLink (partner stack).
    ...(entry.region === "us-east-1" ? { CONNECTOR_URL: connectorUrl } : {}),
    // The doors' public origins: the token issuer is the REST door (ADR 0005), the MCP resource the MCP door.
    EDGE_GATEWAY_URL: api,
    JWT_ISSUER: api,
    MCP_GATEWAY_URL: mcp,
    MCP_PUBLIC_URL: mcp,
    CONNECTOR_TEMPLATE_URL: `${api}/v1/marketplace/connector-role/template.json`,
    ...(entry.database ? { DATABASE_NAME: names.databaseName, PGSSLMODE: "verify-full" } : {}),
    // The relay's outbox-lag EMF line, which the OutboxLag alarms read (observability stack). The
    // default outside tests already; said here so the alarm's source is in the same code.
    ...(relayServices.includes(service) ? { OUTBOX_LAG_METRIC_MS: String(DEFAULT_OUTBOX_LAG_INTERVAL_MS) } : {}),
    // A door's internal listener takes identity-svc's invalidation pushes (ADR 0011): on the task's
    // address (the push URL is that address), admitted from identity-svc only (network stack).
    ...(entry.kind === "door" && entry.metricsPort !== undefined
      ? { METRICS_HOST: "0.0.0.0", METRICS_PORT: String(entry.metricsPort) }
      : {}),
  };
}
