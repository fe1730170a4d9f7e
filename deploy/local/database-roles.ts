import { provisionServiceRoles, serviceRoles } from "@flowstate/shared/db/service-roles";

/**
 * The local stack's database set-up (issue 20, finding 5): from the administrator's URL, one login
 * role per service with a database (`<prefix>_<stage>_<schema>`, owning only its schema), and each
 * such service's DATABASE_URL as that role. The services never receive the administrator's URL,
 * as in production where each has its own database user (issue 23). audit-svc is the exception
 * that provisions its own two roles (its README, "Database roles"), so it keeps the administrator's
 * URL with AUDIT_PROVISION_ROLES.
 *
 * @example
 * const urls = await localDatabaseUrls("postgres://postgres@127.0.0.1:5432/flowstate", "flowstate", "dev");
 * urls.get("identity-svc"); // "postgres://flowstate_dev_identity@127.0.0.1:5432/flowstate"
 */
export function localDatabaseUrls(adminUrl: string, prefix: string, stage: string): Promise<Map<string, string>> {
  return provisionServiceRoles(adminUrl, serviceRoles(prefix, stage));
}

// docker-compose's one-shot `database-roles` container (the compose PostgreSQL is trust-auth).
if (import.meta.main) {
  const { DATABASE_URL, SERVICE_PREFIX = "flowstate", STAGE = "dev" } = process.env;
  if (!DATABASE_URL) throw new Error("DATABASE_URL (the administrator's) is required");
  const urls = await localDatabaseUrls(DATABASE_URL, SERVICE_PREFIX, STAGE);
  for (const [service, url] of urls) console.log(`${service}: ${new URL(url).username}`);
}
