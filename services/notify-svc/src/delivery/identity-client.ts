import { MailTarget, TenantAdmins } from "@flowstate/contracts/internal/identity";
import { bodyless, IDENTITY_HEADER, type RequestBinding } from "@flowstate/shared/auth/identity-assertion";
import { internalCall } from "@flowstate/shared/http/internal-call";

/**
 * identity-svc's `internal.tenant_admins.list`, signed with notify-svc's own key for identity-svc
 * (ADR 0014). Throws on anything but a valid 200: the notice is retried later.
 */
export function remoteTenantAdmins(identityUrl: string, sign: (binding: RequestBinding) => string) {
  return async (tenantId: string): Promise<TenantAdmins["items"]> => {
    const path = `/internal/v1/tenants/${encodeURIComponent(tenantId)}/admins`;
    const res = await internalCall(new URL(path, identityUrl), {
      headers: { [IDENTITY_HEADER]: sign(bodyless("GET", path)) },
      timeoutMs: 5_000,
    });
    if (res.status !== 200) {
      await res.discard();
      throw new Error(`identity-svc answered ${res.status} for the tenant's admins`);
    }
    return TenantAdmins.parse(await res.json()).items;
  };
}

/**
 * identity-svc's `internal.users.mail_target.get`: the person's address and preferences, or null
 * when the account is gone (404 ACCOUNT_GONE). Throws on anything else: the mail is retried.
 */
export function remoteMailTarget(identityUrl: string, sign: (binding: RequestBinding) => string) {
  return async (sub: string): Promise<MailTarget | null> => {
    const path = `/internal/v1/users/${encodeURIComponent(sub)}/mail-target`;
    const res = await internalCall(new URL(path, identityUrl), {
      headers: { [IDENTITY_HEADER]: sign(bodyless("GET", path)) },
      timeoutMs: 5_000,
    });
    if (res.status === 404) {
      if (((await res.json().catch(() => null)) as { code?: string } | null)?.code === "ACCOUNT_GONE") return null;
      throw new Error("identity-svc answered 404 without ACCOUNT_GONE for a mail target");
    }
    if (res.status !== 200) {
      await res.discard();
      throw new Error(`identity-svc answered ${res.status} for a mail target`);
    }
    return MailTarget.parse(await res.json());
  };
}
