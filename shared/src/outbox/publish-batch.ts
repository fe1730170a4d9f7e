import { type EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from "@aws-sdk/client-eventbridge";
import type { ClaimedRow } from "./claim-batch.ts";

// PutEvents limits: 10 entries, and 256 KiB for an entry and for the whole call
// (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEvents.html).
const MAX_ENTRIES = 10;
export const MAX_ENTRY_BYTES = 256 * 1024;

export interface PublishOutcome {
  sent: string[];
  /** Refused this time (or the call failed): retried with backoff. */
  failed: { id: string; error: string }[];
  /** Can never be accepted (larger than an entry may be): never sent, never retried. */
  undeliverable: { id: string; eventKey: string; bytes: number; error: string }[];
}

function toEntry(row: ClaimedRow, busName: string): PutEventsRequestEntry {
  return {
    EventBusName: busName,
    Source: row.envelope.source,
    DetailType: row.envelope.type,
    Detail: JSON.stringify(row.envelope),
  };
}

/**
 * An entry's size as EventBridge counts it ("Calculating PutEvents event entry size",
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html): the UTF-8 bytes
 * of Source, DetailType, Detail and each of Resources, plus 14 bytes for Time when it is set.
 * EventBusName does not count. The limit applies to the entry and to the sum of a call's entries;
 * the page says "less than 256KB", so an entry of exactly 262,144 bytes is treated as too large.
 * moto (5.2) does not enforce the limit (it accepts a 300 KiB entry), so the relay checks it itself.
 */
export function entrySize(e: PutEventsRequestEntry): number {
  let size = e.Time ? 14 : 0;
  size += Buffer.byteLength(e.Source ?? "") + Buffer.byteLength(e.DetailType ?? "") + Buffer.byteLength(e.Detail ?? "");
  for (const resource of e.Resources ?? []) size += Buffer.byteLength(resource);
  return size;
}

/** An entry to send, what it stands for, and its size (`entrySize`). */
export interface SizedEntry<T> {
  item: T;
  entry: PutEventsRequestEntry;
  size: number;
}

/** What `putEntries` did with each item, in order, and how many PutEvents calls it made. */
export interface PutOutcome<T> {
  accepted: T[];
  refused: { item: T; error: string }[];
  requests: number;
}

function chunk<T>(entries: readonly SizedEntry<T>[]): SizedEntry<T>[][] {
  const chunks: SizedEntry<T>[][] = [];
  let current: SizedEntry<T>[] = [];
  let bytes = 0;
  for (const item of entries) {
    if (current.length && (current.length === MAX_ENTRIES || bytes + item.size >= MAX_ENTRY_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Sends entries (each smaller than an entry may be) in as few PutEvents calls as EventBridge's
 * limits allow: ten entries, and less than 256 KiB in all. PutEvents is not all-or-nothing: each
 * result entry carries either an EventId or an ErrorCode, in request order, so each item is
 * reported accepted or refused on its own; a call that throws refuses all of its items. The outbox
 * relay and mcp-gateway's audit publisher send through it.
 */
export async function putEntries<T>(
  eventBridge: EventBridgeClient,
  entries: readonly SizedEntry<T>[],
  timeoutMs?: number,
): Promise<PutOutcome<T>> {
  const outcome: PutOutcome<T> = { accepted: [], refused: [], requests: 0 };
  for (const part of chunk(entries)) {
    outcome.requests++;
    try {
      // A caller that holds something during the call (the relay, its rows' locks) gives a timeout:
      // the SDK sets no request timeout by default, and a hung connection must not hold it forever.
      const res = await eventBridge.send(
        new PutEventsCommand({ Entries: part.map((p) => p.entry) }),
        timeoutMs === undefined ? {} : { abortSignal: AbortSignal.timeout(timeoutMs) },
      );
      part.forEach(({ item }, i) => {
        const result = res.Entries?.[i];
        if (result?.EventId) outcome.accepted.push(item);
        else outcome.refused.push({ item, error: result?.ErrorCode ?? "NoResultEntry" });
      });
    } catch (err) {
      const error = err instanceof Error ? err.name : "PutEventsFailed";
      for (const { item } of part) outcome.refused.push({ item, error });
    }
  }
  return outcome;
}

/**
 * Publishes claimed rows, usually in one PutEvents call (`putEntries`): only the accepted rows are
 * reported sent and the rest are retried. A row too large for an entry is never sent: it is
 * reported undeliverable (retrying could only fail again, and would fail its batch-mates too). A
 * call that timed out after all is re-published.
 */
export async function publishBatch(
  eventBridge: EventBridgeClient,
  busName: string,
  rows: ClaimedRow[],
  timeoutMs = 20_000,
): Promise<PublishOutcome> {
  const outcome: PublishOutcome = { sent: [], failed: [], undeliverable: [] };
  const sendable: SizedEntry<ClaimedRow>[] = [];
  for (const row of rows) {
    const entry = toEntry(row, busName);
    const size = entrySize(entry);
    if (size < MAX_ENTRY_BYTES) sendable.push({ item: row, entry, size });
    else
      outcome.undeliverable.push({
        id: row.id,
        eventKey: row.event_key,
        bytes: size,
        error: `EntryTooLarge: ${size} bytes, EventBridge accepts less than ${MAX_ENTRY_BYTES}`,
      });
  }
  const put = await putEntries(eventBridge, sendable, timeoutMs);
  outcome.sent.push(...put.accepted.map((row) => row.id));
  outcome.failed.push(...put.refused.map(({ item, error }) => ({ id: item.id, error })));
  return outcome;
}
