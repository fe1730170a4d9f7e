import { z } from "zod";
import type { CatalogEvent, EventCatalog } from "./catalog.ts";

/**
 * Events that exist only for the platform's own tests and benchmarks of the event path (outbox,
 * relay, consumer). Kept out of the production catalog: no service can emit or subscribe to them,
 * and no bus rule routes them. Pass it where the platform takes a catalog (`enqueueEvent`,
 * `createConsumer`, `decodeMessage`).
 */
export const testEventCatalog = {
  "PlatformProbe.v1": z.object({ key: z.string().min(1), seq: z.number().int().nonnegative() }),
} as const satisfies EventCatalog;

export type TestEventCatalog = typeof testEventCatalog;
export type ProbeEvent = CatalogEvent<TestEventCatalog, "PlatformProbe.v1">;
