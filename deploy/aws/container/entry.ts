/**
 * The container's entry point on AWS: turns each database login ECS injected (host, port and name
 * as variables, username and password from the login's secret) into the URL the service's config
 * reads, then runs the service. `node deploy/aws/container/entry.ts services/<name>/src/main.ts`.
 * The password never appears in the task definition; encodeURIComponent keeps any character safe.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

export function databaseUrls(env: NodeJS.ProcessEnv): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const variable of ["DATABASE", "AUDIT_OWNER_DATABASE"]) {
    const user = env[`${variable}_USERNAME`];
    const password = env[`${variable}_PASSWORD`];
    if (!user || !password) continue;
    const host = env.DATABASE_HOST;
    if (!host) throw new Error("DATABASE_HOST is required with a database login");
    const port = env.DATABASE_PORT ?? "5432";
    const name = env.DATABASE_NAME ?? "flowstate";
    urls[`${variable}_URL`] =
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(name)}`;
  }
  return urls;
}

if (import.meta.main) {
  const main = process.argv[2];
  if (!main) throw new Error("usage: entry.ts <services/<name>/src/main.ts>");
  Object.assign(process.env, databaseUrls(process.env));
  await import(pathToFileURL(resolve(main)).href);
}
