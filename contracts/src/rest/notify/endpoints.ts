import { z } from "zod";
import { DeliveryId, NotificationEndpointId, TenantId } from "../../ids.ts";
import { FreeText } from "../../text.ts";
import { pageCursor, pageOf, pageQuery } from "../page.ts";

/**
 * What a tenant is told about (decisions.md "Notifications"), one name per kind of message. The
 * payload of each carries ids and states, never e-mail addresses (notify-svc `src/messages/`).
 */
export const NotificationType = z.enum([
  "offer.change_succeeded",
  "offer.change_failed",
  "offer.released",
  "offer.expired",
  "agreement.created",
  "agreement.changed",
  "connector.attention_needed",
  "partner.invitation_received",
]);
export type NotificationType = z.infer<typeof NotificationType>;

/** `webhook`: signed per the Standard Webhooks specification; `slack`: a Slack incoming webhook (a text line). */
export const EndpointKind = z.enum(["webhook", "slack"]);

/** An absolute URL of at most 2,000 characters; which ones notify-svc accepts is its registration's rule (https, public addresses). */
export const EndpointUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const EndpointPath = z.object({ id: TenantId, endpoint_id: NotificationEndpointId });
export type EndpointPath = z.infer<typeof EndpointPath>;
export const DeliveryPath = EndpointPath.extend({ delivery_id: DeliveryId });
export type DeliveryPath = z.infer<typeof DeliveryPath>;

export const CreateEndpoint = z.strictObject({
  kind: EndpointKind.default("webhook"),
  url: EndpointUrl,
  /** The kinds sent to it; all of them when absent. */
  types: z.array(NotificationType).min(1).optional(),
  description: FreeText(200).optional(),
});
export type CreateEndpoint = z.infer<typeof CreateEndpoint>;

export const NotificationEndpoint = z.object({
  id: NotificationEndpointId,
  tenant_id: TenantId,
  kind: EndpointKind,
  /** A webhook's URL; a Slack URL (its path is the credential) shows its origin only. */
  url: z.string(),
  types: z.array(NotificationType),
  description: z.string().nullable(),
  /** `disabled` after every attempt failed for the retry window (24 h); enable it again once it answers. */
  status: z.enum(["enabled", "disabled"]),
  disabled_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type NotificationEndpoint = z.infer<typeof NotificationEndpoint>;

/** The signing secret (`whsec_…`, Standard Webhooks), shown once: at creation and at each rotation. */
export const EndpointSecret = z.object({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/=]{20,}$/),
  /** After a rotation, messages carry a signature with the previous secret too until then. */
  previous_valid_until: z.iso.datetime({ offset: true }).nullable(),
});

export const CreatedEndpoint = NotificationEndpoint.extend({ secret: EndpointSecret.shape.secret.nullable() });
export type CreatedEndpoint = z.infer<typeof CreatedEndpoint>;

export const EndpointList = z.object({ items: z.array(NotificationEndpoint) });

export const DeliveryCursor = pageCursor(200);
export const DeliveryListQuery = z.object(pageQuery(DeliveryCursor));
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;

/** One message to one endpoint, with its attempts summed up; the log keeps 30 days. */
export const Delivery = z.object({
  id: DeliveryId,
  endpoint_id: NotificationEndpointId,
  /** Standard Webhooks' `webhook-id`: the same on every attempt and on a replay, so a receiver can drop duplicates. */
  message_id: z.string(),
  type: NotificationType,
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int().nonnegative(),
  last_status_code: z.number().int().nullable(),
  /** A stable word (`timeout`, `unreachable`, `status`, `address_not_allowed`, …), never the receiver's text. */
  last_error: z.string().nullable(),
  next_attempt_at: z.iso.datetime({ offset: true }).nullable(),
  delivered_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  /** The delivery this one replays. */
  replay_of: DeliveryId.nullable(),
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryList = pageOf(Delivery, DeliveryCursor);
export type DeliveryList = z.infer<typeof DeliveryList>;
