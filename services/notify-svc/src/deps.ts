import type { SESv2Client } from "@aws-sdk/client-sesv2";
import type { MailTarget, TenantAdmins } from "@flowstate/contracts/internal/identity";
import type { Keyring } from "@flowstate/shared/auth/keyring";
import type { CredentialCheck, SeamDeps } from "@flowstate/shared/seam/call-context";

/** How deliveries are made and retried (config.ts `delivery`; tests shorten the timings). */
export interface DeliverySettings {
  /** Local development only: http:// endpoints accepted. */
  allowHttp: boolean;
  /** Special-use addresses accepted all the same (loopback receivers of tests and the local stack). */
  allowedAddresses: ReadonlySet<string>;
  timeoutMs: number;
  retryWindowMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  disableAfterFailures: number;
  pollMs: number;
  logDays: number;
  secretOverlapMs: number;
}

/** Everything notify-svc's app, consumer and worker need, built once at boot (deps-factory.ts) or by a test. */
export interface NotifyDeps extends SeamDeps {
  /** Keys per caller (ADR 0014): the doors' `gateway--notify-svc`, its `notify-svc--identity-svc`. */
  callerKeys: Keyring;
  credentials: CredentialCheck;
  delivery: DeliverySettings;
  clock: () => Date;
  /** SES v2 (eu-central-1) and its sender identity: the e-mail to admins when an endpoint is disabled. */
  ses: SESv2Client;
  mailFrom: string;
  /** The tenant's owner and admins with their addresses, from identity-svc at the moment of sending. */
  tenantAdmins: (tenantId: string) => Promise<TenantAdmins["items"]>;
  /** A person's address and preferences from identity-svc at sending; null when the account is gone. */
  mailTarget: (sub: string) => Promise<MailTarget | null>;
}
