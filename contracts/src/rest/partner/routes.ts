import { accessOf } from "../access.ts";
import { TenantPath } from "../identity/common.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import { PartnerEngagementList, PartnerListQuery, PartnerOpportunityList } from "./sync-state.ts";

const { read } = accessOf("partner-svc");

/** partner-svc: the tenant's partner-program sync state (AWS Partner Central), read-only. */
export const partnerRoutes = [
  defineRoute({
    id: "partner.opportunities.list",
    method: "GET",
    path: "/v1/tenants/{id}/partner/opportunities",
    ...read,
    summary: "Partner Central opportunities of the tenant's seller account, newest event first",
    params: TenantPath,
    query: PartnerListQuery,
    responses: { 200: PartnerOpportunityList },
    problems: ["INVALID_CURSOR"],
  }),
  defineRoute({
    id: "partner.engagements.list",
    method: "GET",
    path: "/v1/tenants/{id}/partner/engagements",
    ...read,
    summary: "Partner Central engagements and invitations of the tenant's seller account, newest event first",
    params: TenantPath,
    query: PartnerListQuery,
    responses: { 200: PartnerEngagementList },
    problems: ["INVALID_CURSOR"],
  }),
] as const satisfies readonly RouteSpec[];
