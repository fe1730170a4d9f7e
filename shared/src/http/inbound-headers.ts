import { TraceParent } from "@flowstate/contracts/ids";

/**
 * Inbound headers are validated where they enter (the gateway, and again in a service before one
 * reaches a log line or an event): a value that fails is dropped, never answered with an error and
 * never a 500. Three rules:
 *
 * - every forwarded value is printable ASCII (space and tab allowed) and at most 4096 characters:
 *   Node accepts obs-text (bytes 0x80-0xFF) in header values, which then reaches services and logs;
 * - `traceparent` is a W3C trace context (contracts' TraceParent); there must be exactly one;
 * - `tracestate` is a W3C list (at most 32 `key=value` members, 512 characters), and is kept only
 *   with a valid `traceparent` (W3C trace context section 3.3).
 */
const PRINTABLE = /^[\t\x20-\x7e]*$/;
const MAX_VALUE = 4096;
const TRACESTATE_MEMBER =
  /^(?:[a-z0-9][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** A header value fit to forward, or undefined. */
export const acceptableHeaderValue = (value: string): boolean => value.length <= MAX_VALUE && PRINTABLE.test(value);

/** The `traceparent` to trust: the single valid value, or undefined (absent, repeated, malformed). */
export function validTraceparent(value: string | readonly string[] | undefined): string | undefined {
  const one = typeof value === "string" ? value : value?.length === 1 ? value[0] : undefined;
  return one !== undefined && TraceParent.safeParse(one).success ? one : undefined;
}

/** The `tracestate` list to forward (repeated headers joined), or undefined when it is malformed. */
export function validTracestate(values: readonly string[]): string | undefined {
  if (!values.length) return undefined;
  const joined = values.join(",");
  if (joined.length > 512) return undefined;
  const members = joined
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (!members.length || members.length > 32 || !members.every((m) => TRACESTATE_MEMBER.test(m))) return undefined;
  return members.join(",");
}
