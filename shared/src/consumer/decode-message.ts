import {
  type DomainEvent,
  type EventCatalog,
  eventCatalog,
  eventKey,
  type ParseEventResult,
  parseEvent,
} from "@flowstate/contracts/events/catalog";

/** A validated event of whichever catalog the consumer reads (the production one unless a test's). */
export type DecodedEvent = DomainEvent;

export type DecodeResult =
  | { ok: true; event: DecodedEvent; key: string }
  | {
      ok: false;
      reason: "invalid_json" | Extract<ParseEventResult, { ok: false }>["reason"];
      issues: { path: string; code: string }[];
    };

/**
 * Turns an SQS body into a validated event. Two shapes arrive: EventBridge's delivery (the event
 * with our envelope in `detail`, because the relay puts the envelope JSON in `Detail`) and the
 * bare envelope that tests and tools send straight to the queue. Issues keep only paths and codes:
 * the values may be personal data and must not reach a log line.
 */
export function decodeMessage(body: string | undefined, catalog: EventCatalog = eventCatalog): DecodeResult {
  let raw: unknown;
  try {
    raw = JSON.parse(body ?? "");
  } catch {
    return { ok: false, reason: "invalid_json", issues: [] };
  }
  const candidate = isEventBridgeEvent(raw) ? raw.detail : raw;
  const parsed = parseEvent(candidate, catalog);
  if (!parsed.ok) {
    return {
      ok: false,
      reason: parsed.reason,
      issues: parsed.issues.map((i) => ({ path: i.path.join("."), code: i.code })),
    };
  }
  return { ok: true, event: parsed.event, key: eventKey(parsed.event.type, parsed.event.version) };
}

function isEventBridgeEvent(raw: unknown): raw is { detail: unknown } {
  return typeof raw === "object" && raw !== null && "detail" in raw && "detail-type" in raw && "source" in raw;
}
