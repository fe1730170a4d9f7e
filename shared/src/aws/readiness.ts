import { GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import type { AwsClients } from "./clients.ts";

/**
 * A /readyz check that AWS answers with our credentials: STS GetCallerIdentity needs no
 * permission and touches no data, so it works against real AWS and the local emulator alike.
 * It aborts after `timeoutMs` (below the app's readiness timeout) so no request piles up.
 *
 * @example
 * createServiceApp({ name, logger, readiness: { aws: awsReadiness(aws) } });
 */
export function awsReadiness(aws: AwsClients, timeoutMs = 1500): () => Promise<void> {
  return async () => {
    await aws.data("sts").send(new GetCallerIdentityCommand({}), { abortSignal: AbortSignal.timeout(timeoutMs) });
  };
}
