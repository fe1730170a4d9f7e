import { serviceCatalog } from "@flowstate/contracts/services/catalog";
import { booleanVar, serviceConfigSchema } from "@flowstate/shared/config/base";
import { z } from "zod";

const optionalKey = z.string().min(16).optional();

/**
 * connector-svc's environment, parsed once at boot by main.ts. Principal keys are for the local
 * stack (the seller sandbox's keys); unset, each principal's role is assumed from the default
 * credential chain (production, ADR 0006).
 */
export const ConnectorConfig = serviceConfigSchema({
  service: "connector-svc",
  extra: {
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .default("connector"),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    /** The KMS key that encrypts external IDs (alias/<prefix>-<stage>-data by default). */
    DATA_KMS_KEY_ID: z.string().min(1).optional(),
    /** Flowstate's AWS account: the principals' account, shown in the onboarding bundle. */
    FLOWSTATE_ACCOUNT_ID: z
      .string()
      .regex(/^\d{12}$/)
      .default("123456789012"),
    /** Principals a tenant's role must trust, comma-separated; the list can grow (interface.md §2.3). */
    CONNECTOR_PRINCIPALS: z
      .string()
      .regex(/^[a-z][a-z0-9-]*(,[a-z][a-z0-9-]*)*$/)
      .default("backend,mcp-execution")
      .transform((v) => v.split(",")),
    PRINCIPAL_BACKEND_ACCESS_KEY_ID: optionalKey,
    PRINCIPAL_BACKEND_SECRET_ACCESS_KEY: optionalKey,
    PRINCIPAL_MCP_EXECUTION_ACCESS_KEY_ID: optionalKey,
    PRINCIPAL_MCP_EXECUTION_SECRET_ACCESS_KEY: optionalKey,
    /** identity-svc: every write re-checks the caller's session or API key there (ADR 0012). */
    IDENTITY_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    /** The public gateway; the CloudFormation template is served through it when no URL is given. */
    EDGE_GATEWAY_URL: z.url().optional(),
    /** Where the current CloudFormation template is published (an S3 https URL in production). */
    CONNECTOR_TEMPLATE_URL: z.url().optional(),
    /** The Terraform module as sellers reference it, and its version with the current policy. */
    TERRAFORM_MODULE_SOURCE: z.string().min(1).default("flowstate/marketplace-connector/aws"),
    TERRAFORM_MODULE_VERSION: z.string().min(1).default("2.0.0"),
    /** How long a health answer is reused per tenant (the seller's account is not hammered). */
    HEALTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    /** Consume TenantSoftDeleted from `<prefix>-<stage>-connector-svc`. */
    CONSUME_EVENTS: booleanVar(true),
  },
}).transform((env) => ({
  ...env,
  DATA_KMS_KEY_ID: env.DATA_KMS_KEY_ID ?? `alias/${env.SERVICE_PREFIX}-${env.STAGE}-data`,
  CONNECTOR_TEMPLATE_URL:
    env.CONNECTOR_TEMPLATE_URL ??
    `${env.EDGE_GATEWAY_URL ?? `http://127.0.0.1:${serviceCatalog["edge-gateway"].port}`}/v1/marketplace/connector-role/template.json`,
}));
export type ConnectorConfig = z.output<typeof ConnectorConfig>;
