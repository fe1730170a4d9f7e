import {
  NDJSON,
  PartLine,
  type PersonalDataCategory,
  personalDataPath,
} from "@flowstate/contracts/internal/personal-data";
import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { bodyless, IDENTITY_HEADER } from "@flowstate/shared/auth/identity-assertion";
import { callSigner } from "@flowstate/shared/seam/verify-caller";
import type { PrivacyDeps } from "../deps.ts";
import { AccountGone, GatheringError } from "./errors.ts";

/** The `code` of a problem+json answer (read up to 4 KiB), or undefined. */
async function problemCode(res: Response): Promise<string | undefined> {
  try {
    const text = await res.text();
    const code = text.length <= 4096 ? (JSON.parse(text) as { code?: unknown }).code : undefined;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Streams one category from the service that owns it (GET …/personal-data/{category}, NDJSON),
 * signed with privacy-svc's own `service` identity. Yields records as they arrive; throws
 * AccountGone on 404 ACCOUNT_GONE and GatheringError for anything else that is not a complete answer (no end
 * line, a count that differs, a broken line, a transport error or the timeout).
 */
export async function* remoteCategory(
  deps: PrivacyDeps,
  service: string,
  sub: string,
  category: PersonalDataCategory,
  signal: AbortSignal,
): AsyncGenerator<unknown> {
  const base = deps.participantUrls[service as keyof PrivacyDeps["participantUrls"]];
  if (!base) throw new GatheringError(service, category, "no URL configured");
  const path = personalDataPath(sub, category);
  const fail = (what: string, cause?: unknown) => new GatheringError(service, category, what, { cause });
  const timeout = AbortSignal.timeout(deps.limits.participantTimeoutMs);
  let res: Response;
  try {
    res = await fetch(new URL(path, base), {
      headers: {
        accept: NDJSON,
        // Its pair's key when it has keys per caller (ADR 0014); `service` is a registry participant.
        [IDENTITY_HEADER]: callSigner(deps, "privacy-svc", service as FlowstateServiceName)(bodyless("GET", path)),
      },
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (err) {
    throw fail(timeout.aborted ? "timed out" : "unreachable", err);
  }
  if (res.status === 404) {
    // Only the owner's own word cancels the export: a 404 for a missing route (a participant
    // deployed without it, a wrong base URL, a proxy) is a failure to gather, retried then failed.
    if ((await problemCode(res)) === "ACCOUNT_GONE") throw new AccountGone(`${service} knows no active account ${sub}`);
    throw fail("answered 404 without ACCOUNT_GONE");
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    throw fail(`answered ${res.status}`);
  }
  const decoder = new TextDecoder();
  let pending = "";
  let count = 0;
  let ended = false;
  const line = (text: string): unknown => {
    if (ended) throw fail("data after the end line");
    let parsed: ReturnType<typeof PartLine.safeParse>;
    try {
      parsed = PartLine.safeParse(JSON.parse(text));
    } catch (err) {
      throw fail("a line is not JSON", err);
    }
    if (!parsed.success) throw fail("a line is neither a record nor the end");
    if ("end" in parsed.data) {
      if (parsed.data.end.count !== count) throw fail(`end line counts ${parsed.data.end.count}, got ${count}`);
      ended = true;
      return undefined;
    }
    count++;
    return parsed.data.record;
  };
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n", start)) {
        const text = pending.slice(start, nl);
        start = nl + 1;
        if (text) {
          const record = line(text);
          if (!ended) yield record;
        }
      }
      pending = pending.slice(start);
    }
  } catch (err) {
    if (err instanceof GatheringError) throw err;
    throw fail(timeout.aborted ? "timed out" : "the answer broke off", err);
  }
  if (!ended || (pending + decoder.decode()).trim()) throw fail("the answer was cut short");
}
