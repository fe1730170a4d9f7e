import { parseAuthorization } from "../sigv4/parse-authorization.ts";
import { type ReceivedRequest, verifySignature } from "../sigv4/verify.ts";
import type { FlowstatePrincipal } from "./principals.ts";
import type { Session, SessionStore } from "./sessions.ts";

export type Caller =
  | { kind: "principal"; arn: string; account: string; principal: FlowstatePrincipal }
  | { kind: "session"; arn: string; account: string; session: Session };

/** Why a request is not authenticated; each protocol renders these in its own error shape. */
export type AuthFailureReason = "missing" | "unknown-key" | "bad-signature" | "wrong-scope" | "expired";
export type AuthResult = { ok: true; caller: Caller } | { ok: false; reason: AuthFailureReason; message: string };

export interface Authenticator {
  authenticate(req: ReceivedRequest, service: "sts" | "aws-marketplace"): AuthResult;
}

const fail = (reason: AuthFailureReason, message: string): AuthResult => ({ ok: false, reason, message });

/**
 * Identifies the caller from the SigV4 access key: one of Flowstate's static principal keys, or
 * credentials this sandbox's STS issued. The signature is recomputed with the secret the sandbox
 * holds (unless `verifySignatures` is off), the scope must name the service and us-east-1, and a
 * session key needs its session token and must not have expired on its account's clock.
 *
 * @example
 * const auth = createAuthenticator({ principals, sessions, verifySignatures: true, now: (a) => clock(a) });
 * const result = auth.authenticate(received, "aws-marketplace");
 */
export function createAuthenticator(deps: {
  principals: Map<string, FlowstatePrincipal>;
  sessions: SessionStore;
  verifySignatures: boolean;
  flowstateAccountId: string;
  now(account: string): number;
}): Authenticator {
  return {
    authenticate(req, service) {
      const auth = parseAuthorization(req.header("authorization"));
      if (!auth) return fail("missing", "Missing Authentication Token");
      if (auth.service !== service) {
        return fail("wrong-scope", `Credential should be scoped to correct service: '${service}'.`);
      }
      if (auth.region !== "us-east-1") return fail("wrong-scope", "Credential should be scoped to a valid region.");

      const principal = deps.principals.get(auth.accessKeyId);
      const session = principal ? undefined : deps.sessions.get(auth.accessKeyId);
      const secret = principal?.secretAccessKey ?? session?.secretAccessKey;
      if (!secret) return fail("unknown-key", "The security token included in the request is invalid.");
      if (session && req.header("x-amz-security-token") !== session.sessionToken) {
        return fail("unknown-key", "The security token included in the request is invalid.");
      }
      if (deps.verifySignatures && !verifySignature(req, auth, secret)) {
        return fail(
          "bad-signature",
          "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
        );
      }
      if (principal) {
        return {
          ok: true,
          caller: { kind: "principal", arn: principal.arn, account: deps.flowstateAccountId, principal },
        };
      }
      const s = session as Session;
      if (deps.now(s.account) >= s.expiresAt)
        return fail("expired", "The security token included in the request is expired");
      return { ok: true, caller: { kind: "session", arn: s.arn, account: s.account, session: s } };
    },
  };
}
