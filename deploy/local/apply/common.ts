import { isDeepStrictEqual } from "node:util";
import type { AwsClients } from "@flowstate/shared/aws/clients";

/** What one bootstrap step needs: the real SDK clients and a log of what it changed. */
export interface ApplyContext {
  aws: AwsClients;
  /** Each create or update appends one line; a run against an up-to-date stack appends none. */
  changes: string[];
  /**
   * Which side of the residency line a step works on: `data` (eu-central-1, the default) or
   * `partner` (the us-east-1 partner-program inbound bus and queue; nothing else may go there).
   */
  side?: "data" | "partner";
}

/** The EventBridge client of the context's side (see `ApplyContext.side`). */
export const eventBridgeOf = (ctx: ApplyContext) =>
  ctx.side === "partner" ? ctx.aws.partner("partner-eventbridge") : ctx.aws.data("eventbridge");

/** The SQS client of the context's side (see `ApplyContext.side`). */
export const sqsOf = (ctx: ApplyContext) =>
  ctx.side === "partner" ? ctx.aws.partner("partner-sqs") : ctx.aws.data("sqs");

/**
 * True when the SDK error is one of the named AWS error codes. SDK v3 puts the code in `name`;
 * some services (S3 HEAD requests) only have the HTTP status, hence `status`.
 */
export function isAwsError(err: unknown, names: readonly string[], status?: number): boolean {
  if (!(err instanceof Error)) return false;
  const meta = (err as { $metadata?: { httpStatusCode?: number } }).$metadata;
  const code = (err as { Code?: string }).Code;
  return (
    names.includes(err.name) ||
    (code !== undefined && names.includes(code)) ||
    (status !== undefined && meta?.httpStatusCode === status)
  );
}

/**
 * Compares two JSON documents (policies, redrive policies, event patterns) by meaning rather than
 * by text: AWS and the emulators re-serialise them with other spacing, key order and number types.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(normalise(a), normalise(b));
}

function normalise(value: unknown): unknown {
  if (typeof value === "string") {
    const t = value.trim();
    if (t.startsWith("{") || t.startsWith("[")) {
      try {
        return normalise(JSON.parse(t));
      } catch {
        return value;
      }
    }
    return /^\d+$/.test(t) ? Number(t) : value;
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}
