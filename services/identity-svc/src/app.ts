import { databaseReady } from "@flowstate/shared/db/open-database";
import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import { routeBook } from "@flowstate/shared/http/route-book";
import type { IdentityDeps } from "./deps.ts";
import type { IdentityApp, IdentityEnv } from "./http/env.ts";
import { identityContext } from "./http/identity-context.ts";
import { mountOAuthRoutes } from "./oauth/register-routes.ts";
import { mountApiKeysCreate } from "./routes/api-keys-create.ts";
import { mountApiKeysList } from "./routes/api-keys-list.ts";
import { mountApiKeysRevoke } from "./routes/api-keys-revoke.ts";
import { mountAuthJwks } from "./routes/auth-jwks.ts";
import { mountAuthRefresh } from "./routes/auth-refresh.ts";
import { mountAuthSignin } from "./routes/auth-signin.ts";
import { mountAuthSignout } from "./routes/auth-signout.ts";
import { mountAuthSignoutEverywhere } from "./routes/auth-signout-everywhere.ts";
import { mountAuthSignup } from "./routes/auth-signup.ts";
import { mountFeaturesGet } from "./routes/features-get.ts";
import { mountFeaturesUpdate } from "./routes/features-update.ts";
import { mountInternalApiKeysVerify } from "./routes/internal-api-keys-verify.ts";
import { mountInternalCredentialsCheck } from "./routes/internal-credentials-check.ts";
import { mountInternalDoorsLeave } from "./routes/internal-doors-leave.ts";
import { mountInternalDoorsRenew } from "./routes/internal-doors-renew.ts";
import { mountInternalFeaturesGet } from "./routes/internal-features-get.ts";
import { mountInternalMembershipsGet } from "./routes/internal-memberships-get.ts";
import { mountInternalPersonalDataGet } from "./routes/internal-personal-data-get.ts";
import { mountInternalSessionsGet } from "./routes/internal-sessions-get.ts";
import { mountInternalTenantAdminsList } from "./routes/internal-tenant-admins-list.ts";
import { mountInternalUsersMailTargetGet } from "./routes/internal-users-mail-target-get.ts";
import { mountMembersAdd } from "./routes/members-add.ts";
import { mountMembersList } from "./routes/members-list.ts";
import { mountMembersRemove } from "./routes/members-remove.ts";
import { mountMembersUpdate } from "./routes/members-update.ts";
import { mountTenantsCreate } from "./routes/tenants-create.ts";
import { mountTenantsDelete } from "./routes/tenants-delete.ts";
import { mountTenantsGet } from "./routes/tenants-get.ts";
import { mountTenantsList } from "./routes/tenants-list.ts";
import { mountTenantsOwnershipTransfer } from "./routes/tenants-ownership-transfer.ts";
import { mountTenantsRename } from "./routes/tenants-rename.ts";
import { mountUsersMeDelete } from "./routes/users-me-delete.ts";
import { mountUsersMeGet } from "./routes/users-me-get.ts";
import { mountUsersMeInvitationsAccept } from "./routes/users-me-invitations-accept.ts";
import { mountUsersMeInvitationsDecline } from "./routes/users-me-invitations-decline.ts";
import { mountUsersMeInvitationsList } from "./routes/users-me-invitations-list.ts";
import { mountUsersMeNotificationPreferencesGet } from "./routes/users-me-notification-preferences-get.ts";
import { mountUsersMeNotificationPreferencesUpdate } from "./routes/users-me-notification-preferences-update.ts";
import { mountUsersMeUpdate } from "./routes/users-me-update.ts";
import { checkOwnCredential } from "./verbs/lib/live-credential.ts";

/**
 * Write routes whose handler calls nothing before its verb's inTenantTransaction (verbs/lib/tenant-transaction.ts).
 * Adding one here needs its case in routes/tenant-write-credential.security.test.ts.
 */
export const CHECKED_IN_TRANSACTION: ReadonlySet<string> = new Set(["tenants.rename", "features.update"]);

/**
 * identity-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the deny-by-default gateway assertion check, then one route per file, each mounted from its
 * registry entry (`routes/<route id>.ts` exports `mount<RouteId>`). `app.test.ts` checks that the
 * routes here and the registries (contracts/src/rest/routes.ts, contracts/src/internal/routes.ts)
 * are the same set. `checkResponses` (tests) checks every answer against its schema.
 */
export function createApp(
  deps: IdentityDeps,
  options: { metrics?: MetricsRegistry; checkResponses?: boolean } = {},
): IdentityApp {
  const app = createServiceApp<IdentityEnv>({
    name: "identity-svc",
    logger: deps.logger,
    metrics: options.metrics,
    checkResponses: options.checkResponses,
    bodyLimitBytes: 64 * 1024, // identity's bodies are tiny; nothing legitimate comes near this
    readiness: { database: databaseReady(deps.orm) },
  });
  app.use(identityContext(deps));
  // identity-svc keeps its own caller middleware (its context class, the invalidation header), but
  // every route's declared access is the seam's, applied by mountRoute (ADR 0012): an internal
  // route's `callers`, the user routes' rule, and the tenant rule on what the gateway signed. A
  // write's credential is checked first, as everywhere (a dead one is 401 whatever else is wrong);
  // the verb's own transaction checks it again under its locks (inTransaction), and decides on the
  // tenant again from its membership rows (authorize-tenant.ts), which it locks anyway.
  routeBook(app).access = {
    callOf: (c) => {
      const { actor, tenant } = c.get("ctx");
      return { caller: actor.kind === "system" ? { kind: "anonymous" } : actor, tenant };
    },
    recheck: (c) => checkOwnCredential(c.get("ctx")),
    // Their verbs open the write's transaction with inTenantTransaction, whose first statement
    // re-checks the credential under its locks; the early read is made only when they refuse
    // (issue 26; tenant-write-credential.security.test.ts holds each to a 401 on every path).
    checkedInTransaction: CHECKED_IN_TRANSACTION,
  };

  // auth
  mountAuthSignup(app);
  mountAuthSignin(app);
  mountAuthRefresh(app);
  mountAuthSignout(app);
  mountAuthSignoutEverywhere(app);
  mountAuthJwks(app);
  // the signed-in user
  mountUsersMeGet(app);
  mountUsersMeUpdate(app);
  mountUsersMeDelete(app);
  mountUsersMeNotificationPreferencesGet(app);
  mountUsersMeNotificationPreferencesUpdate(app);
  mountUsersMeInvitationsList(app);
  mountUsersMeInvitationsAccept(app);
  mountUsersMeInvitationsDecline(app);
  // tenants
  mountTenantsCreate(app);
  mountTenantsList(app);
  mountTenantsGet(app);
  mountTenantsRename(app);
  mountTenantsDelete(app);
  mountTenantsOwnershipTransfer(app);
  // members
  mountMembersList(app);
  mountMembersAdd(app);
  mountMembersUpdate(app);
  mountMembersRemove(app);
  // features
  mountFeaturesGet(app);
  mountFeaturesUpdate(app);
  // API keys
  mountApiKeysList(app);
  mountApiKeysCreate(app);
  mountApiKeysRevoke(app);
  // OAuth 2.1 authorization server for MCP clients, and the user's authorized clients (src/oauth)
  mountOAuthRoutes(app);
  // internal (gateway lookups)
  mountInternalSessionsGet(app);
  mountInternalApiKeysVerify(app);
  mountInternalMembershipsGet(app);
  mountInternalFeaturesGet(app);
  // internal (notify-svc: whom to tell that an endpoint was disabled, and a person's own mail)
  mountInternalTenantAdminsList(app);
  mountInternalUsersMailTargetGet(app);
  // internal (door instances' leases: invalidations pushed to every instance, ADR 0011)
  mountInternalDoorsRenew(app);
  mountInternalDoorsLeave(app);
  // internal (privacy-svc gathering a personal-data export)
  mountInternalPersonalDataGet(app);
  // internal (every other service re-checking a caller's credential before a write)
  mountInternalCredentialsCheck(app);
  return app;
}
