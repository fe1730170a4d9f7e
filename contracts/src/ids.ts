import { z } from "zod";

/**
 * Identifiers Flowstate mints carry a readable prefix (`tnt_…`, `evt_…`) so a stray id in a log
 * says what it is. A `sub` is opaque on purpose: never an e-mail, never derived from one.
 */
const prefixed = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{10,40}$`), `expected an id of the form ${prefix}_…`);

export const Sub = prefixed("usr");
export type Sub = z.infer<typeof Sub>;
export const TenantId = prefixed("tnt");
export type TenantId = z.infer<typeof TenantId>;
export const EventId = prefixed("evt");
export type EventId = z.infer<typeof EventId>;
export const SessionId = prefixed("ses");
export const ApiKeyId = prefixed("key");
export const ExportJobId = prefixed("exp");
export const InvitationId = prefixed("inv");
/** offers-svc's record of one submitted change set (not AWS's ChangeSetId, which is stored beside it). */
export const OfferChangeId = prefixed("chg");
/** notify-svc: a tenant's notification endpoint (a signed webhook or a Slack incoming webhook). */
export const NotificationEndpointId = prefixed("whe");
/** notify-svc: one delivery of a message to one endpoint (a replay is a delivery of its own). */
export const DeliveryId = prefixed("dlv");
/** notify-svc: a message, sent as Standard Webhooks' `webhook-id` (the same on every retry and replay). */
export const MessageId = prefixed("msg");

/**
 * A request id as services adopt and log it (`req_…` when minted here; a safe incoming value when
 * the gateway or a load balancer set one): no spaces, quotes or control characters.
 */
export const RequestId = z.string().regex(/^[A-Za-z0-9._:-]{8,128}$/, "expected a request id");

/**
 * W3C trace context `traceparent` header value, version 00
 * (https://www.w3.org/TR/trace-context/#traceparent-header): lower-case hex, and neither the
 * trace id nor the parent id all zeros (the spec calls those invalid).
 */
export const TraceParent = z
  .string()
  .regex(/^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/, "expected a W3C traceparent");

export const TenantRole = z.enum(["owner", "admin", "member"]);
export type TenantRole = z.infer<typeof TenantRole>;
