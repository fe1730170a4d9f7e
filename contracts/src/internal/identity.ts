import { z } from "zod";
import { ApiKeyId, SessionId, Sub, TenantId, TenantRole } from "../ids.ts";
import { NotificationPreferences } from "../rest/identity/users.ts";

/**
 * Internal contract between edge-gateway and identity-svc. These routes live under `/internal/v1`
 * on identity-svc, are never exposed by the gateway, and require a signed gateway assertion
 * (see shared/src/auth/identity-assertion.ts) like every other service call.
 */

/** Who the gateway verified the caller to be; forwarded to services in the signed assertion. */
const UserIdentity = z.object({ kind: z.literal("user"), sub: Sub, sid: SessionId });
const ApiKeyIdentity = z.object({
  kind: z.literal("api_key"),
  sub: Sub, // the admin who created the key: its revocation also stops the key
  key_id: ApiKeyId,
  tenant_id: TenantId,
  scope: z.enum(["read", "write"]),
});
export const VerifiedIdentity = z.discriminatedUnion("kind", [
  UserIdentity,
  ApiKeyIdentity,
  /**
   * A platform component calling on its own behalf, before any caller is known (the gateway's
   * `/internal/v1` lookups: verifying an API key, checking a session; privacy-svc gathering a
   * user's personal data for an export). Services accept it only on `/internal/v1` routes; on a
   * public route it is refused (401) like a missing assertion.
   */
  z.object({
    kind: z.literal("service"),
    // identity-svc: its pushes of invalidations to the doors' internal listeners (ADR 0011).
    service: z.enum([
      "connector-svc",
      "edge-gateway",
      "identity-svc",
      "mcp-gateway",
      "notify-svc",
      "offers-svc",
      "partner-inbound",
      "privacy-svc",
    ]),
  }),
]);
export type VerifiedIdentity = z.infer<typeof VerifiedIdentity>;

/**
 * The door the caller came through: `rest` (edge-gateway: web app, CRM card, scripts) or `mcp`
 * (mcp-gateway). The gateway says it in the signed assertion, so a service never guesses which
 * Flowstate principal reaches the tenant's AWS account (REST → backend, MCP → mcp-execution).
 */
export const Channel = z.enum(["rest", "mcp"]);
export type Channel = z.infer<typeof Channel>;

/** Gateway context added for `/v1/tenants/{id}/**` once membership is checked. */
export const TenantContext = z.object({ tenant_id: TenantId, role: TenantRole });
export type TenantContext = z.infer<typeof TenantContext>;

/**
 * GET /internal/v1/sessions/{sid}[?iat=<seconds>]: is this session (and its account) still allowed
 * in? With `iat` (the access token's issued-at), `active` is also false when the token was issued
 * before `tokens_valid_after`. Unknown sid: 404.
 */
export const SessionState = z.object({
  sid: SessionId,
  sub: Sub,
  active: z.boolean(),
  /** Access tokens issued before this instant are refused (RFC 3339). */
  tokens_valid_after: z.iso.datetime({ offset: true }),
});
export type SessionState = z.infer<typeof SessionState>;

/**
 * POST /internal/v1/api-keys/verify: body `{key}`, answer 200 ApiKeyState or 404 (not a key of
 * ours). `active` is false when the key is revoked, its tenant is deleted, or its creator is
 * disabled, deleted or no longer an admin or owner of the tenant.
 */
export const ApiKeyVerifyRequest = z.object({ key: z.string().min(1).max(200) });
export const ApiKeyState = z.object({
  key_id: ApiKeyId,
  tenant_id: TenantId,
  scope: z.enum(["read", "write"]),
  created_by: Sub,
  active: z.boolean(),
});
export type ApiKeyState = z.infer<typeof ApiKeyState>;

/**
 * POST /internal/v1/credentials/check: is the session or API key behind a signed call still live?
 * Another service asks before a write (shared/src/seam/credential-check.ts), so a request signed
 * before a sign-out, a key revocation, a demotion of the key's creator or an account deletion and
 * replayed inside the assertion window writes nothing. Answer: 204 live, or the 401 problem
 * SESSION_REVOKED / INVALID_API_KEY; identity-svc applies the rule it applies to its own writes.
 */
export const CredentialCheckRequest = z.object({
  identity: z.discriminatedUnion("kind", [UserIdentity, ApiKeyIdentity]),
});
export type CredentialCheckRequest = z.infer<typeof CredentialCheckRequest>;

/** GET /internal/v1/tenants/{id}/features: 200 FeatureFlags (rest/identity/tenants.ts), or 404 when the tenant is missing or deleted. */

/** GET /internal/v1/tenants/{id}/members/{sub}: 200 Membership, or 404 when not an active member. */
export const MembershipState = z.object({ tenant_id: TenantId, sub: Sub, role: TenantRole });

/**
 * Where an operational notice about a tenant goes (notify-svc: one of its endpoints was disabled):
 * the owner and admins with an active account, their `sub` and address, read at the moment of
 * sending and never stored by the caller.
 */
export const TenantAdmins = z.object({ items: z.array(z.object({ sub: Sub, email: z.email() })) });
export type TenantAdmins = z.infer<typeof TenantAdmins>;

/**
 * Where a person's own notification e-mail goes and whether they want it (notify-svc: an offer
 * change they asked for succeeded or failed): read at the moment of sending, never stored.
 */
export const MailTarget = z.object({ sub: Sub, email: z.email(), preferences: NotificationPreferences });
export type MailTarget = z.infer<typeof MailTarget>;
export type MembershipState = z.infer<typeof MembershipState>;

/**
 * Synchronous cache invalidation: identity-svc answers every revoking call with this header and
 * the gateway applies (then strips) it before it relays the answer, so no request it accepts after
 * the revoking call returns can use stale state. Other gateway instances learn the same through
 * the `AccessRevoked` event.
 */
export const INVALIDATE_HEADER = "flowstate-invalidate";
export const Invalidation = z.object({
  /** `features`: the tenant's feature flags changed (the gateway caches them for routes that declare one). */
  scope: z.enum(["account", "session", "api_key", "membership", "features"]),
  sub: Sub.optional(),
  sid: SessionId.optional(),
  key_id: ApiKeyId.optional(),
  tenant_id: TenantId.optional(),
});
export const InvalidationList = z.array(Invalidation).max(100);
export type Invalidation = z.infer<typeof Invalidation>;
