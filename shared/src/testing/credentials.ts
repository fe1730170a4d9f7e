import type { CredentialCheck } from "../seam/call-context.ts";

/**
 * For a service's own tests that run without identity-svc and sign made-up users and keys (as the
 * gateway would): every signed credential counts as live. Only test harnesses use it; a harness
 * given identity-svc's URL checks for real (remoteCredentials), and so do the replay tests
 * (services/edge-gateway/test/service-seam.test.ts). Production deps have no way to build it.
 */
export const credentialsAsSigned: CredentialCheck = Object.freeze({ remote: async () => {} });
