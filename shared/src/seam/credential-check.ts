import { IDENTITY_HEADER, sha256Base64url } from "../auth/identity-assertion.ts";
import { invalidApiKey, sessionRevoked } from "../auth/tenant-refusal.ts";
import { DomainError } from "../errors/domain-error.ts";
import { type InternalAnswer, internalCall } from "../http/internal-call.ts";
import type { CredentialCaller, CredentialCheck } from "./call-context.ts";
import type { InternalSigner } from "./verify-caller.ts";

/** identity-svc's route (contracts/src/internal/routes.ts, `internal.credentials.check`). */
export const CREDENTIAL_CHECK_PATH = "/internal/v1/credentials/check";

export interface RemoteCredentialsOptions {
  /** identity-svc's base URL (IDENTITY_URL). */
  identityUrl: string;
  /** Signs the calling service's own identity (verify-caller.ts `internalSigner`). */
  sign: InternalSigner;
  /** How long the check may take before the write is refused with 503 (default 2000 ms). */
  timeoutMs?: number;
}

/** The answer when identity-svc cannot say: nothing is written, the caller may retry; never "live". */
const cannotTell = (cause?: unknown) =>
  new DomainError(
    "unavailable",
    "UPSTREAM_UNAVAILABLE",
    "the credential could not be checked; nothing was done, retry",
    {
      retryAfter: 1,
      cause,
    },
  );

/**
 * A write's credential re-check for every service but identity-svc (which reads its own tables):
 * asks identity-svc whether the session or API key of the signed call is still live, right before
 * the write's transaction opens. 204 → live; 401 → SESSION_REVOKED or INVALID_API_KEY, the problem
 * the gateway would answer; anything else, a timeout or no answer → 503 UPSTREAM_UNAVAILABLE.
 * Not cached: the point is the state after the assertion was signed.
 *
 * @example
 * serviceSeam({ service: "privacy-svc", deps, credentials: remoteCredentials({ identityUrl, sign }) });
 */
export function remoteCredentials(options: RemoteCredentialsOptions): CredentialCheck {
  const timeoutMs = options.timeoutMs ?? 2_000;
  return {
    async remote(caller: CredentialCaller): Promise<void> {
      const body = JSON.stringify({ identity: caller });
      let res: InternalAnswer;
      try {
        res = await internalCall(`${options.identityUrl}${CREDENTIAL_CHECK_PATH}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [IDENTITY_HEADER]: options.sign({
              method: "POST",
              target: CREDENTIAL_CHECK_PATH,
              bodySha256: sha256Base64url(body),
            }),
          },
          body,
          timeoutMs,
        });
      } catch (err) {
        throw cannotTell(err);
      }
      if (res.status === 204) return res.discard();
      if (res.status !== 401) {
        await res.discard();
        throw cannotTell(new Error(`identity-svc answered ${res.status} to the credential check`));
      }
      const code = ((await res.json().catch(() => null)) as { code?: unknown } | null)?.code;
      if (code === "SESSION_REVOKED") throw sessionRevoked();
      if (code === "INVALID_API_KEY") throw invalidApiKey();
      throw cannotTell(new Error(`identity-svc answered 401 ${String(code)} to the credential check`));
    },
  };
}
