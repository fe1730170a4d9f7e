import { PARTNER_REGION } from "@flowstate/shared/aws/clients";
import { queueNames } from "@flowstate/shared/config/base";
import { PARTNER_EVENT_SOURCE, partnerBusNames } from "@flowstate/shared/partner/ingest-bus";

/**
 * The us-east-1 side of Flowstate, and all of it (the residency manifest checks that nothing else
 * is there): the shard buses tenants forward AWS Partner Central events to, one rule per bus into
 * partner-inbound's queue, and that queue's DLQ. The buses' policies admit only connected tenants'
 * accounts; partner-inbound writes them as connectors come and go (ADR 0003).
 */
export interface PartnerIngestDefinition {
  region: typeof PARTNER_REGION;
  buses: string[];
  queueName: string;
  dlqName: string;
  /** The rule on each bus has this name (rule names are per bus). */
  ruleName: string;
  eventPattern: Record<string, unknown>;
  maxReceiveCount: number;
  /**
   * Queue and DLQ hold a message only until partner-inbound has written its metadata to
   * eu-central-1; one day is enough to ride out an outage and short enough that nothing lingers.
   */
  retentionSeconds: number;
  receiveWaitSeconds: number;
  visibilityTimeoutSeconds: number;
}

export function definePartnerIngest(s: { prefix: string; stage: string }): PartnerIngestDefinition {
  const names = queueNames({ SERVICE_PREFIX: s.prefix, STAGE: s.stage }, "partner-inbound");
  return {
    region: PARTNER_REGION,
    buses: partnerBusNames({ SERVICE_PREFIX: s.prefix, STAGE: s.stage }),
    queueName: names.queue,
    dlqName: names.dlq,
    ruleName: names.queue,
    eventPattern: { source: [PARTNER_EVENT_SOURCE] },
    maxReceiveCount: 5,
    retentionSeconds: 24 * 3600,
    receiveWaitSeconds: 20,
    visibilityTimeoutSeconds: 30,
  };
}
