import { CreateEmailIdentityCommand } from "@aws-sdk/client-sesv2";
import { type Harness, startHarness } from "@flowstate/identity-svc/testing/harness";
import { createAwsClients } from "@flowstate/shared/aws/clients";
import { serve } from "@flowstate/shared/http/serve";
import { createLogger } from "@flowstate/shared/log/logger";
import { startMoto } from "../../../deploy/local/moto.ts";
import { type NotifyHarness, startNotifySvc } from "../src/testing/harness.ts";

/**
 * notify-svc as its e-mail tests need it: a real identity-svc served over HTTP (addresses and
 * preferences are fetched at sending), and SES on a moto of its own with `mailFrom` verified, so
 * what a test reads back (`sentMail(mailEndpoint)`) is only its own mail: late in a full run the
 * shared moto's state page, which serialises every suite's resources, timed out or failed.
 */
export async function startMailStack(options: {
  prefix: string;
  mailFrom: string;
  delivery?: NonNullable<Parameters<typeof startNotifySvc>[0]>["delivery"];
}): Promise<{ identity: Harness; h: NotifyHarness; mailEndpoint: string; close(): Promise<void> }> {
  const identity = await startHarness({ prefix: `notify_${options.prefix}_id` });
  const identityServer = await serve(identity.app, {
    host: "127.0.0.1",
    port: 0,
    logger: createLogger({ service: "identity-svc" }),
    handleSignals: false,
    drainTimeoutMs: 1_000,
  });
  const mail = await startMoto();
  await createAwsClients({ endpoint: mail.endpoint })
    .data("sesv2")
    .send(new CreateEmailIdentityCommand({ EmailIdentity: options.mailFrom }));
  const h = await startNotifySvc({
    prefix: options.prefix,
    secret: identity.secret,
    identityUrl: identityServer.url,
    mailFrom: options.mailFrom,
    sesEndpoint: mail.endpoint,
    ...(options.delivery ? { delivery: options.delivery } : {}),
  });
  return {
    identity,
    h,
    mailEndpoint: mail.endpoint,
    async close() {
      await h.close();
      await identityServer.shutdown("test done");
      await identity.close();
      await mail.stop();
    },
  };
}
