import { routeIn } from "@flowstate/contracts/rest/route";
import { connectorRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import { connectorTemplate } from "@flowstate/shared/marketplace/connector-role/cloudformation-template";
import type { ConnectorApp } from "../http/env.ts";

/**
 * The current CloudFormation template, public: the quick-create link's `templateURL` must be
 * reachable by the AWS console. As JSON (CloudFormation reads both): the template object that
 * deploy/connector-role/generate.ts writes as the committed YAML (its tests check the file parses
 * into exactly this object). In production it is published to S3 (README); locally the gateway
 * serves this route.
 */
export function mountMarketplaceConnectorRoleTemplate(app: ConnectorApp): void {
  const template = connectorTemplate("current");
  mountRoute(app, routeIn(connectorRoutes, "marketplace.connector_role.template"), () => ({
    status: 200,
    body: template,
    headers: { "cache-control": "public, max-age=300" },
  }));
}
