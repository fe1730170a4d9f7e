import { randomUUID } from "node:crypto";
import { problemCodes } from "@flowstate/contracts/errors/codes";

/** One answer a flow got (or the failure to get one), judged against the interface. */
export interface Judged {
  flow: string;
  step: string;
  /** The HTTP status, or "network" when no answer came. */
  status: number | "network";
  code?: string;
  /** `documented`: 2xx, or a problem whose code the interface lists with that status (not INTERNAL_ERROR). */
  verdict: "documented" | "explained" | "unexplained";
  detail?: string;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: flows read answers field by field
  json: any;
  text: string;
}

/**
 * Whether an answer is one the interface documents: a 2xx, or problem+json whose `code` is one of
 * the problem codes with exactly its status. INTERNAL_ERROR is never documented here (its one
 * specified use, the legacy role's agreements list, is not among the flows).
 */
export function judge(status: number, contentType: string | null, json: unknown): "documented" | "unexplained" {
  if (status >= 200 && status < 300) return "documented";
  if (!contentType?.startsWith("application/problem+json")) return "unexplained";
  const code = (json as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || code === "INTERNAL_ERROR" || !Object.hasOwn(problemCodes, code)) return "unexplained";
  return problemCodes[code as keyof typeof problemCodes].status === status ? "documented" : "unexplained";
}

const RETRYABLE = new Set(["UPSTREAM_UNAVAILABLE", "RATE_LIMITED", "SERVICE_UNAVAILABLE"]);

/**
 * HTTP to the edge gateway as a careful client: every answer is recorded and judged; an answer
 * that says "try again" (503, 429 RATE_LIMITED, no answer at all) is retried after its Retry-After
 * until `deadlineMs`, with the same Idempotency-Key for a create. A network failure is `explained`
 * only while the door itself is down (`doorDown()`), else `unexplained`.
 */
export function faultClient(options: {
  base: () => string;
  record: (j: Judged) => void;
  doorDown: () => boolean;
  deadlineMs?: number;
}) {
  const deadlineMs = options.deadlineMs ?? 120_000;
  return async function call(
    flow: string,
    step: string,
    method: string,
    path: string,
    o: { token?: string; body?: unknown; idempotent?: boolean } = {},
  ): Promise<Answer> {
    const key = o.idempotent ? randomUUID() : undefined;
    const until = Date.now() + deadlineMs;
    for (let attempt = 1; ; attempt++) {
      let wait = Math.min(250 * attempt, 2_000);
      try {
        const res = await fetch(`${options.base()}${path}`, {
          method,
          headers: {
            ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
            ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
            ...(key ? { "idempotency-key": key } : {}),
          },
          ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const code = (json as { code?: string } | undefined)?.code;
        const verdict = judge(res.status, res.headers.get("content-type"), json);
        options.record({
          flow,
          step,
          status: res.status,
          ...(code ? { code } : {}),
          verdict,
          ...(verdict === "unexplained" ? { detail: text.slice(0, 300) } : {}),
        });
        if (!(code && RETRYABLE.has(code)) || Date.now() > until) return { status: res.status, json, text };
        wait = Math.max(wait, Number(res.headers.get("retry-after") ?? 1) * 1000);
      } catch (err) {
        const down = options.doorDown();
        options.record({
          flow,
          step,
          status: "network",
          verdict: down ? "explained" : "unexplained",
          ...(down ? {} : { detail: String((err as Error).cause ?? err) }),
        });
        if (Date.now() > until) throw new Error(`${flow}/${step}: no answer within ${deadlineMs / 1000} s`);
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  };
}

export type FaultCall = ReturnType<typeof faultClient>;
