/** What a consumer has done since it started (`Consumer.stats()`), counted by the runner and its message handler. */
export interface ConsumerStats {
  received: number;
  processed: number;
  duplicates: number;
  /** Messages that can never be handled: invalid JSON, envelope or data, unknown event, no handler. */
  rejected: number;
  /** Rejected messages moved to the DLQ at once (the others were left for redrive: the move failed). */
  deadLettered: number;
  /** Handler errors (left for redrive). */
  failed: number;
  deleted: number;
}
