import { z } from "zod";
import { EventId, Sub, TenantId, TraceParent } from "../ids.ts";

/**
 * The envelope every domain event travels in, whatever its type. `data` is validated separately
 * against the catalog entry for (`type`, `version`), so an unknown or newer event can still be
 * recognised, logged and dead-lettered rather than crash a consumer.
 */
export const EventEnvelope = z.object({
  id: EventId,
  type: z.string().regex(/^[A-Z][A-Za-z]+$/, "expected a PascalCase event type"),
  version: z.number().int().positive(),
  source: z.string().regex(/^flowstate\.[a-z-]+$/, "expected flowstate.<service>"),
  occurred_at: z.iso.datetime({ offset: true }),
  tenant_id: TenantId.optional(),
  subject: Sub.optional(),
  trace: TraceParent.optional(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;
