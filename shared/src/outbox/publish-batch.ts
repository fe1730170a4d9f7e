import { type EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from "@aws-sdk/client-eventbridge";
import type { ClaimedRow } from "./claim-batch.ts";

// PutEvents limits: 10 entries and 256 KiB per call (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEvents.html).
const MAX_ENTRIES = 10;
const MAX_BYTES = 256 * 1024;

export interface PublishOutcome {
  sent: string[];
  failed: { id: string; error: string }[];
}

function toEntry(row: ClaimedRow, busName: string): PutEventsRequestEntry {
  return {
    EventBusName: busName,
    Source: row.envelope.source,
    DetailType: row.envelope.type,
    Detail: JSON.stringify(row.envelope),
  };
}

// The size rule counts Source, DetailType, Detail (UTF-8) and 14 bytes for the Time field.
function entrySize(e: PutEventsRequestEntry): number {
  return (
    Buffer.byteLength(e.Source ?? "") + Buffer.byteLength(e.DetailType ?? "") + Buffer.byteLength(e.Detail ?? "") + 14
  );
}

function chunk(rows: ClaimedRow[], busName: string): { row: ClaimedRow; entry: PutEventsRequestEntry }[][] {
  const chunks: { row: ClaimedRow; entry: PutEventsRequestEntry }[][] = [];
  let current: { row: ClaimedRow; entry: PutEventsRequestEntry }[] = [];
  let bytes = 0;
  for (const row of rows) {
    const entry = toEntry(row, busName);
    const size = entrySize(entry);
    if (current.length && (current.length === MAX_ENTRIES || bytes + size > MAX_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push({ row, entry });
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Publishes claimed rows, usually in one PutEvents call. PutEvents is not all-or-nothing: each
 * result entry carries either an EventId or an ErrorCode, in request order, so only the accepted
 * rows are reported sent and the rest are retried. A call that throws (network, throttling after
 * the SDK's own retries) fails all its rows.
 */
export async function publishBatch(
  eventBridge: EventBridgeClient,
  busName: string,
  rows: ClaimedRow[],
  timeoutMs = 20_000,
): Promise<PublishOutcome> {
  const outcome: PublishOutcome = { sent: [], failed: [] };
  for (const part of chunk(rows, busName)) {
    try {
      // The rows stay locked during the call: a hung connection must not hold them forever (the SDK
      // sets no request timeout by default). A call that timed out after all is re-published.
      const res = await eventBridge.send(new PutEventsCommand({ Entries: part.map((p) => p.entry) }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      part.forEach(({ row }, i) => {
        const result = res.Entries?.[i];
        if (result?.EventId) outcome.sent.push(row.id);
        else outcome.failed.push({ id: row.id, error: result?.ErrorCode ?? "NoResultEntry" });
      });
    } catch (err) {
      const error = err instanceof Error ? err.name : "PutEventsFailed";
      for (const { row } of part) outcome.failed.push({ id: row.id, error });
    }
  }
  return outcome;
}
