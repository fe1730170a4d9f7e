import { routedServices } from "@flowstate/contracts/rest/routes";
import { type ServiceEntry, serviceCatalog, serviceNames, urlVariable } from "@flowstate/contracts/services/catalog";
import { baseEnv, derivedNames } from "@flowstate/shared/config/base";
import type { StackOutputs } from "./bootstrap.ts";

/**
 * The runtime environment contract as scripts/start.ts and docker-compose.yml hand it to each
 * process. The shared names come from the services' own config schema (shared/src/config/base.ts),
 * so the two cannot drift apart; compose.test.ts checks docker-compose.yml against this list.
 */
export const CONTRACT_VARIABLES = [...Object.keys(baseEnv), "PORT"].sort();

/** Variables a particular service needs beyond the shared ones. */
export const SERVICE_VARIABLES: Record<string, readonly string[]> = {
  // Its upstreams (every service that owns a registry route) and the console it serves at /app.
  "edge-gateway": [...routedServices.map(urlVariable), urlVariable("web-console")],
  // The console's calls go to the public API through the gateway, as a browser's would (ADR 0015).
  "web-console": ["EDGE_GATEWAY_URL", "JWT_ISSUER"],
  "identity-svc": ["SIGNING_KEYS_SECRET_ID", "SIGN_IN_THROTTLE_SECRET_ID"],
  // IDENTITY_URL (connector-svc, offers-svc, privacy-svc): writes re-check the caller's credential there (ADR 0012).
  "offers-svc": [
    "IDENTITY_URL",
    "CONNECTOR_URL",
    "PRINCIPAL_BACKEND_ACCESS_KEY_ID",
    "PRINCIPAL_BACKEND_SECRET_ACCESS_KEY",
    "PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID",
    "PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY",
  ],
  "connector-svc": [
    "IDENTITY_URL",
    "DATA_KMS_KEY_ID",
    "FLOWSTATE_ACCOUNT_ID",
    "CONNECTOR_TEMPLATE_URL",
    "PRINCIPAL_BACKEND_ACCESS_KEY_ID",
    "PRINCIPAL_BACKEND_SECRET_ACCESS_KEY",
    "PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID",
    "PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY",
  ],
  // IDENTITY_URL: identity-svc answers for part of the personal-data export, and re-checks writes.
  "privacy-svc": ["IDENTITY_URL", "EXPORTS_BUCKET", "DATA_KMS_KEY_ID", "MAIL_FROM"],
  // AUDIT_PROVISION_ROLES: the local DATABASE_URL is an administrator (README of audit-svc, "Database roles").
  "audit-svc": ["AUDIT_ARCHIVE_BUCKET", "AUDIT_PROVISION_ROLES"],
  // Local development only: webhooks to http:// receivers on this machine (production: https, public addresses).
  "notify-svc": ["IDENTITY_URL", "MAIL_FROM", "WEBHOOK_ALLOW_HTTP", "WEBHOOK_ALLOWED_ADDRESSES"],
};

/** Default local ports (the README's `PORT` row), from the services catalog. */
export const DEFAULT_PORTS: Record<string, number> = Object.fromEntries(
  serviceNames.map((name) => [name, serviceCatalog[name].port]),
);

/**
 * Default local ports of the internal /metrics listeners (METRICS_PORT, on loopback), from the
 * services catalog: the doors' main ports are public, so their scrape is served apart.
 */
export const DEFAULT_METRICS_PORTS: Record<string, number> = Object.fromEntries(
  serviceNames.flatMap((name) => {
    const entry: ServiceEntry = serviceCatalog[name];
    return entry.metricsPort === undefined ? [] : [[name, entry.metricsPort]];
  }),
);

/** What the bootstrap created, as variables (names a service may also derive on its own). */
export function stackEnvironment(outputs: StackOutputs, prefix: string, stage: string): Record<string, string> {
  const names = derivedNames({ SERVICE_PREFIX: prefix, STAGE: stage });
  return {
    EVENT_BUS_NAME: outputs.busName,
    SIGNING_KEYS_SECRET_ID: names.signingKeysSecretId,
    SIGN_IN_THROTTLE_SECRET_ID: names.signInThrottleSecretId,
    DATA_KMS_KEY_ID: outputs.keyAlias,
    EXPORTS_BUCKET: outputs.buckets.exports,
    AUDIT_ARCHIVE_BUCKET: outputs.buckets.auditArchive,
    SNAPSHOTS_BUCKET: outputs.buckets.snapshots,
    MAIL_FROM: outputs.mailFrom,
  };
}
