import { auditRoleNames } from "@flowstate/audit-svc/db/roles";
import {
  type FlowstateServiceName,
  flowstateServiceNames,
  type ServiceEntry,
  serviceCatalog,
} from "@flowstate/contracts/services/catalog";
import { derivedNames } from "@flowstate/shared/config/base";
import { serviceRoles } from "@flowstate/shared/db/service-roles";
import { type BucketRole, defineStack, type StackDefinition } from "../local/definition.ts";
import { definePartnerIngest, type PartnerIngestDefinition } from "../local/partner-definition.ts";
import type { DeploySettings } from "./settings.ts";

/**
 * Everything deploy/aws derives per service, from the services catalog
 * (contracts/src/services/catalog.ts) and the bootstrap's definition (deploy/local/definition.ts):
 * nothing here lists services by hand but which bucket a service's code writes to.
 */
export const entryOf = (service: FlowstateServiceName): ServiceEntry => serviceCatalog[service];

/** Every Flowstate service runs on Fargate (the sandbox plays the seller's account and is not deployed). */
export const deployedServices: readonly FlowstateServiceName[] = flowstateServiceNames;
/** Services that run in eu-central-1, and the one that runs in us-east-1 (ADR 0003). */
export const dataServices = deployedServices.filter((s) => entryOf(s).region === "eu-central-1");
export const partnerServices = deployedServices.filter((s) => entryOf(s).region === "us-east-1");
export const doors = deployedServices.filter((s) => entryOf(s).kind === "door");
/**
 * Services that run the outbox relay: an outbox needs a database, publishing it needs EventBridge
 * (stacks.test.ts holds this to the services whose main.ts starts the relay).
 */
export const relayServices = dataServices.filter((s) => entryOf(s).database && entryOf(s).aws.includes("eventbridge"));

/**
 * The bucket each service's code reads and writes (its configuration's `*_BUCKET` variable): the
 * one fact not in the catalog, which names the `s3` client but not the bucket. The snapshots bucket
 * has no user among the services.
 */
export const BUCKET_USERS: Partial<Record<BucketRole, FlowstateServiceName>> = {
  exports: "privacy-svc",
  auditArchive: "audit-svc",
};
export const BUCKET_VARIABLES: Record<BucketRole, string> = {
  exports: "EXPORTS_BUCKET",
  auditArchive: "AUDIT_ARCHIVE_BUCKET",
  snapshots: "SNAPSHOTS_BUCKET",
};

/** A database login of a service: the role name and the Secrets Manager secret holding its password. */
export interface DatabaseLogin {
  /** The environment variable prefix the container entry turns into a URL (container/entry.ts). */
  variable: "DATABASE" | "AUDIT_OWNER_DATABASE";
  username: string;
  secretName: string;
}

/** Names of one deployment: the bootstrap's definition for this account plus what only production has. */
export interface DeploymentNames {
  definition: StackDefinition;
  partner: PartnerIngestDefinition;
  signingKeysSecretId: string;
  /** `<prefix>-<stage>.internal`: the private DNS namespace services find each other in. */
  namespace: string;
  databaseName: string;
  /** The Aurora cluster's identifier, `<prefix>-<stage>` (its log group and the restore runbook name it). */
  clusterIdentifier: string;
  principalRoles: { backend: string; "mcp-execution": string };
  logGroup: (service: string) => string;
  databaseLogins: (service: FlowstateServiceName) => DatabaseLogin[];
  adminSecretName: string;
}

export function deploymentNames(s: DeploySettings): DeploymentNames {
  const definition = defineStack({ prefix: s.prefix, stage: s.stage, accountId: s.account, mailFrom: s.mailFrom });
  const derived = derivedNames({ SERVICE_PREFIX: s.prefix, STAGE: s.stage });
  const roles = serviceRoles(s.prefix, s.stage);
  const secret = (login: string) => `${s.prefix}/${s.stage}/database/${login}`;
  return {
    definition,
    partner: definePartnerIngest(s),
    signingKeysSecretId: derived.signingKeysSecretId,
    namespace: `${s.prefix}-${s.stage}.internal`,
    databaseName: s.prefix.replaceAll("-", "_"),
    clusterIdentifier: `${s.prefix}-${s.stage}`,
    principalRoles: {
      backend: `${s.prefix}-${s.stage}-backend`,
      "mcp-execution": `${s.prefix}-${s.stage}-mcp-execution`,
    },
    logGroup: (service) => `/${s.prefix}/${s.stage}/${service}`,
    adminSecretName: secret("admin"),
    databaseLogins: (service) => {
      if (!entryOf(service).database) return [];
      // audit-svc connects as an insert-only role and migrates as the schema's owner (its README, "Database roles").
      if (service === "audit-svc") {
        const audit = auditRoleNames({ SERVICE_PREFIX: s.prefix, STAGE: s.stage });
        return [
          { variable: "DATABASE", username: audit.service, secretName: secret(audit.service) },
          { variable: "AUDIT_OWNER_DATABASE", username: audit.owner, secretName: secret(audit.owner) },
        ];
      }
      const role = roles.find((r) => r.service === service);
      if (!role) throw new Error(`${service} has a database but no role in shared/src/db/service-roles.ts`);
      return [{ variable: "DATABASE", username: role.role, secretName: secret(role.role) }];
    },
  };
}

/** Whether a service has a queue of its own (it consumes at least one event type). */
export const consumes = (service: FlowstateServiceName) => {
  const c = entryOf(service).consumes;
  return c === "all" || c.length > 0;
};

/** identity-svc → identity: the short name in construct ids and the private DNS name. */
export const shortName = (service: string) => service.replace(/-svc$/, "");
