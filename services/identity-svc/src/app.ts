import { createServiceApp } from "@flowstate/shared/http/app";
import type { MetricsRegistry } from "@flowstate/shared/http/metrics";
import type { IdentityDeps } from "./deps.ts";
import type { IdentityApp } from "./http/env.ts";
import { identityContext } from "./http/identity-context.ts";
import { registerApiKeyCreate } from "./routes/api-keys-create.ts";
import { registerApiKeyList } from "./routes/api-keys-list.ts";
import { registerApiKeyRevoke } from "./routes/api-keys-revoke.ts";
import { registerRefresh } from "./routes/auth-refresh.ts";
import { registerSignIn } from "./routes/auth-signin.ts";
import { registerSignOut } from "./routes/auth-signout.ts";
import { registerSignUp } from "./routes/auth-signup.ts";
import { registerFeaturesGet } from "./routes/features-get.ts";
import { registerFeaturesUpdate } from "./routes/features-update.ts";
import { registerInternalApiKeyVerify } from "./routes/internal-api-key-verify.ts";
import { registerInternalMembership } from "./routes/internal-membership.ts";
import { registerInternalSession } from "./routes/internal-session.ts";
import { registerJwks } from "./routes/jwks.ts";
import { registerMemberAdd } from "./routes/members-add.ts";
import { registerMemberList } from "./routes/members-list.ts";
import { registerMemberRemove } from "./routes/members-remove.ts";
import { registerMemberUpdate } from "./routes/members-update.ts";
import { registerTenantCreate } from "./routes/tenants-create.ts";
import { registerTenantDelete } from "./routes/tenants-delete.ts";
import { registerTenantGet } from "./routes/tenants-get.ts";
import { registerTenantList } from "./routes/tenants-list.ts";
import { registerOwnershipTransfer } from "./routes/tenants-ownership-transfer.ts";
import { registerTenantRename } from "./routes/tenants-rename.ts";
import { registerDeleteMe } from "./routes/users-me-delete.ts";
import { registerGetMe } from "./routes/users-me-get.ts";
import { registerGetNotificationPreferences } from "./routes/users-me-notification-preferences-get.ts";
import { registerUpdateNotificationPreferences } from "./routes/users-me-notification-preferences-update.ts";
import { registerUpdateMe } from "./routes/users-me-update.ts";

/**
 * identity-svc's HTTP app: the platform base (request ids, body limit, probes, one error mapping),
 * the deny-by-default gateway assertion check, then one route per file. `app.test.ts` checks that
 * the routes here and the public registry (contracts/src/rest/routes.ts) are the same set.
 */
export function createApp(deps: IdentityDeps, options: { metrics?: MetricsRegistry } = {}): IdentityApp {
  const app = createServiceApp({
    name: "identity-svc",
    logger: deps.logger,
    metrics: options.metrics,
    bodyLimitBytes: 64 * 1024, // identity's bodies are tiny; nothing legitimate comes near this
    readiness: {
      database: async () => {
        const r = await deps.orm.checkConnection();
        if (!r.ok) throw new Error("database unreachable");
      },
    },
  }) as unknown as IdentityApp;
  app.use(identityContext(deps));

  // auth
  registerSignUp(app);
  registerSignIn(app);
  registerRefresh(app);
  registerSignOut(app);
  registerJwks(app);
  // the signed-in user
  registerGetMe(app);
  registerUpdateMe(app);
  registerDeleteMe(app);
  registerGetNotificationPreferences(app);
  registerUpdateNotificationPreferences(app);
  // tenants
  registerTenantCreate(app);
  registerTenantList(app);
  registerTenantGet(app);
  registerTenantRename(app);
  registerTenantDelete(app);
  registerOwnershipTransfer(app);
  // members
  registerMemberList(app);
  registerMemberAdd(app);
  registerMemberUpdate(app);
  registerMemberRemove(app);
  // features
  registerFeaturesGet(app);
  registerFeaturesUpdate(app);
  // API keys
  registerApiKeyList(app);
  registerApiKeyCreate(app);
  registerApiKeyRevoke(app);
  // internal (gateway lookups)
  registerInternalSession(app);
  registerInternalApiKeyVerify(app);
  registerInternalMembership(app);
  return app;
}
