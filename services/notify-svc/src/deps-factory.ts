import { type BootParts, platformDeps } from "@flowstate/shared/boot/platform-deps";
import { remoteCredentials } from "@flowstate/shared/seam/credential-check";
import { callSigner } from "@flowstate/shared/seam/verify-caller";
import type { NotifyConfig } from "./config.ts";
import { remoteMailTarget, remoteTenantAdmins } from "./delivery/identity-client.ts";
import type { NotifyDeps } from "./deps.ts";

/** The one way to assemble NotifyDeps from configuration (main.ts; the test harness builds its own). */
export function buildDeps(o: BootParts<NotifyConfig>): NotifyDeps {
  const platform = platformDeps(o);
  return {
    ...platform,
    credentials: remoteCredentials({
      identityUrl: o.config.IDENTITY_URL,
      sign: callSigner(platform, "notify-svc", "identity-svc"),
    }),
    delivery: o.config.delivery,
    clock: () => new Date(),
    ses: o.aws.data("sesv2"),
    mailFrom: o.config.MAIL_FROM,
    tenantAdmins: remoteTenantAdmins(o.config.IDENTITY_URL, callSigner(platform, "notify-svc", "identity-svc")),
    mailTarget: remoteMailTarget(o.config.IDENTITY_URL, callSigner(platform, "notify-svc", "identity-svc")),
  };
}
