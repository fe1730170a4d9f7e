import { z } from "zod";
import { accessOf, CONNECTOR_PROBLEMS, MARKETPLACE, marketplaceAccessOf } from "../access.ts";
import { TenantPath } from "../identity/common.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { HealthReport } from "./diagnosis.ts";
import {
  ConnectorStatus,
  ConnectRequest,
  ConnectResponse,
  OnboardingBundle,
  ProductList,
  ProductsQuery,
} from "./marketplace.ts";

const connector = "connector-svc" as const;
// `public` is a reserved word in a module, hence the other name.
const { public: anyone } = accessOf(connector);
const { read, write } = marketplaceAccessOf(connector);

/**
 * The marketplace connector (interface.md §4.1, decisions.md). Every tenant route needs the
 * tenant's `marketplace_offers` flag, enforced by the gateway (403 FEATURE_DISABLED).
 */
export const connectorRoutes = [
  defineRoute({
    id: "marketplace.connector.get",
    method: "GET",
    path: MARKETPLACE,
    ...read,
    summary: "The connector's status; the external ID is generated on the first read and kept until disconnect",
    params: TenantPath,
    responses: { 200: ConnectorStatus },
  }),
  defineRoute({
    id: "marketplace.connector.connect",
    method: "POST",
    path: MARKETPLACE,
    ...write,
    summary:
      "Connect the seller account's MarketplaceConnector role: assumed with the external ID, verified with one catalog read (422 CONNECTOR_VERIFICATION_FAILED names the step)",
    params: TenantPath,
    body: ConnectRequest,
    problems: ["CONNECTOR_VERIFICATION_FAILED", "CONNECTOR_CHANGED", "SELLER_ACCOUNT_IN_USE"],
    responses: { 200: ConnectResponse },
  }),
  defineRoute({
    id: "marketplace.connector.disconnect",
    method: "DELETE",
    path: MARKETPLACE,
    ...write,
    summary: "Disconnect: the connector and its external ID are discarded (the next read generates a new one)",
    params: TenantPath,
    responses: { 204: null },
  }),
  defineRoute({
    id: "marketplace.connector.onboarding",
    method: "GET",
    path: `${MARKETPLACE}/onboarding`,
    ...write,
    summary:
      "The onboarding bundle: principals, account, stage, region, CloudFormation quick-create link, Terraform call, console steps and policies",
    params: TenantPath,
    responses: { 200: OnboardingBundle },
  }),
  defineRoute({
    id: "marketplace.connector.health",
    method: "GET",
    path: `${MARKETPLACE}/health`,
    ...read,
    summary:
      "Per principal: can it assume the role; per capability: does it work; a diagnosis with a stable code and the fix per onboarding path",
    params: TenantPath,
    problems: ["CONNECTOR_NOT_CONNECTED"],
    responses: { 200: HealthReport },
  }),
  defineRoute({
    id: "marketplace.products.list",
    method: "GET",
    path: `${MARKETPLACE}/products`,
    ...read,
    summary: "The seller account's SaaS products, a page at a time (`next_cursor`)",
    params: TenantPath,
    query: ProductsQuery,
    problems: [...CONNECTOR_PROBLEMS, "INVALID_CURSOR"],
    responses: { 200: ProductList },
  }),
  defineRoute({
    id: "marketplace.connector_role.template",
    method: "GET",
    path: "/v1/marketplace/connector-role/template.json",
    ...anyone,
    summary: "The current CloudFormation template of the connector role, as JSON (what the quick-create link deploys)",
    responses: { 200: z.record(z.string(), z.unknown()) },
  }),
] as const satisfies readonly RouteSpec[];
