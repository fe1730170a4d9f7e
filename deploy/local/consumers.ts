import { consumingServices, serviceCatalog } from "@flowstate/contracts/services/catalog";

/** What the bootstrap needs of a declared consumer (below): its queue's name and its rule. */
export interface ConsumerDefinition {
  service: string;
  /** The envelope `type`s routed to this consumer, every version; "all" for every Flowstate event. */
  events: readonly string[] | "all";
}

/**
 * Every consuming service of the services catalog (contracts/src/services/catalog.ts) with the event
 * types it consumes: the bootstrap gives each one EventBridge rule on those types, its own SQS
 * queue and a DLQ, and nothing else gets a queue. The services' own declarations
 * (`defineConsumer`) read the same entries, so a queue's rule and its handlers cannot disagree;
 * deploy/ imports no service.
 */
export const consumers: readonly ConsumerDefinition[] = consumingServices.map((service) => {
  const consumes = serviceCatalog[service].consumes;
  return { service, events: consumes === "all" ? "all" : [...consumes].sort() };
});
