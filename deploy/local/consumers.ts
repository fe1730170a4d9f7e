import { auditSubscription } from "@flowstate/audit-svc/consumers/consumer";
import { connectorConsumer } from "@flowstate/connector-svc/consumers/tenant-soft-deleted";
import { revocationConsumer } from "@flowstate/edge-gateway/events/revocation-consumer";
import { mcpRevocationConsumer } from "@flowstate/mcp-gateway/revocations";
import { offersConsumer } from "@flowstate/offers-svc/consumers/handlers";
import { connectorEventsConsumer } from "@flowstate/partner-inbound/connector-events";
import { partnerConsumer } from "@flowstate/partner-svc/consumers/handlers";
import { privacySubscription } from "@flowstate/privacy-svc/consumers/handlers";
import type { ConsumerDefinition } from "@flowstate/shared/consumer/define-consumer";

/**
 * Every declared consumer (`defineConsumer`, `defineStatelessConsumer`): the bootstrap gives each
 * one EventBridge rule on the event types it subscribes to, its own SQS queue and a DLQ, and
 * nothing else gets a queue. A new consumer is one line here, importing the service's declaration.
 */
export const consumers: readonly Pick<ConsumerDefinition<unknown>, "service" | "events">[] = [
  revocationConsumer,
  connectorConsumer(),
  mcpRevocationConsumer,
  connectorEventsConsumer,
  partnerConsumer,
  offersConsumer,
  privacySubscription,
  auditSubscription,
];
