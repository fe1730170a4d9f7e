import { routeIn } from "@flowstate/contracts/rest/route";
import { partnerRoutes } from "@flowstate/contracts/rest/routes";
import { mountRoute } from "@flowstate/shared/http/mount-route";
import type { PartnerApp } from "../http/env.ts";
import { listOpportunities, positionOf } from "../verbs/list-sync-state.ts";

export function mountOpportunitiesList(app: PartnerApp): void {
  mountRoute(app, routeIn(partnerRoutes, "partner.opportunities.list"), async ({ params, query }, c) => {
    const { orm, schema } = c.get("call").deps;
    return { status: 200, body: await listOpportunities(orm.em.fork(), schema, params.id, query, positionOf(query)) };
  });
}
