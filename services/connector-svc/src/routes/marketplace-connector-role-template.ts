import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import { parse } from "yaml";
import { templateBody } from "../../../../deploy/connector-role/deploy.ts";
import type { ConnectorApp } from "../http/env.ts";

/**
 * The current CloudFormation template, public: the quick-create link's `templateURL` must be
 * reachable by the AWS console. As JSON (CloudFormation reads both), parsed once from the
 * committed YAML that deploy/connector-role/generate.ts renders from policies.ts. In production
 * it is published to S3 (README); locally the gateway serves this route.
 */
export function mountMarketplaceConnectorRoleTemplate(app: ConnectorApp): void {
  const template = parse(templateBody("current")) as Record<string, unknown>;
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector_role.template"), () => ({
    status: 200,
    body: template,
    headers: { "cache-control": "public, max-age=300" },
  }));
}
