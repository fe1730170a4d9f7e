import { accessOf } from "../access.ts";
import { TenantPath } from "../identity/common.ts";
import { defineRoute, type RouteSpec } from "../route.ts";
import {
  CreatedEndpoint,
  CreateEndpoint,
  Delivery,
  DeliveryList,
  DeliveryListQuery,
  DeliveryPath,
  EndpointList,
  EndpointPath,
  EndpointSecret,
  NotificationEndpoint,
} from "./endpoints.ts";

// Admins manage a tenant's endpoints (issue 25), and write keys, which stand for an admin, so that
// a deployment pipeline can register its own receiver. Members see none of it: URLs and the
// delivery log are the admins' business.
const { write } = accessOf("notify-svc");
const ENDPOINTS = "/v1/tenants/{id}/notifications/endpoints";
const ENDPOINT = `${ENDPOINTS}/{endpoint_id}`;

/** notify-svc: the tenant's notification endpoints, their delivery log and replay (ADR 0017). */
export const notifyRoutes = [
  defineRoute({
    id: "notifications.endpoints.list",
    method: "GET",
    path: ENDPOINTS,
    ...write,
    summary: "The tenant's notification endpoints (signed webhooks and Slack), oldest first",
    params: TenantPath,
    responses: { 200: EndpointList },
  }),
  defineRoute({
    id: "notifications.endpoints.create",
    method: "POST",
    path: ENDPOINTS,
    ...write,
    summary:
      "Registers a webhook (https, public addresses only; its whsec_ signing secret is shown once) or a Slack incoming webhook",
    params: TenantPath,
    body: CreateEndpoint,
    problems: ["WEBHOOK_URL_REFUSED", "ENDPOINT_LIMIT_REACHED"],
    responses: { 201: CreatedEndpoint },
  }),
  defineRoute({
    id: "notifications.endpoints.delete",
    method: "DELETE",
    path: ENDPOINT,
    ...write,
    summary: "Removes an endpoint; its pending deliveries are dropped",
    params: EndpointPath,
    problems: ["NOT_FOUND"],
    responses: { 204: null },
  }),
  defineRoute({
    id: "notifications.endpoints.enable",
    method: "POST",
    path: `${ENDPOINT}/enable`,
    ...write,
    summary: "Enables an endpoint again after it was disabled for failing; new messages reach it from now on",
    params: EndpointPath,
    problems: ["NOT_FOUND"],
    responses: { 200: NotificationEndpoint },
  }),
  defineRoute({
    id: "notifications.endpoints.rotate_secret",
    method: "POST",
    path: `${ENDPOINT}/rotate-secret`,
    ...write,
    summary:
      "Gives a webhook a new signing secret; for 24 hours each message carries a signature with the previous one too",
    params: EndpointPath,
    problems: ["NOT_FOUND"],
    responses: { 200: EndpointSecret },
  }),
  defineRoute({
    id: "notifications.deliveries.list",
    method: "GET",
    path: `${ENDPOINT}/deliveries`,
    ...write,
    summary: "The endpoint's delivery log (30 days), newest first; cursor pagination",
    params: EndpointPath,
    query: DeliveryListQuery,
    problems: ["NOT_FOUND", "INVALID_CURSOR"],
    responses: { 200: DeliveryList },
  }),
  defineRoute({
    id: "notifications.deliveries.replay",
    method: "POST",
    path: `${ENDPOINT}/deliveries/{delivery_id}/replay`,
    ...write,
    summary: "Sends a logged message again, with the same webhook-id, as a new delivery",
    params: DeliveryPath,
    problems: ["NOT_FOUND"],
    responses: { 202: Delivery },
  }),
] as const satisfies readonly RouteSpec[];
