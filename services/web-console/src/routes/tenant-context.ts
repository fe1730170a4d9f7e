import { TenantId } from "@flowstate/contracts/ids";
import type { Tenant } from "@flowstate/contracts/rest/identity/tenants";
import { notFoundProblem } from "../api/api-client.ts";
import type { ConsoleContext } from "../http/env.ts";
import { renderProblem } from "../pages/error-page.ts";

/**
 * The tenant a `/app/t/{id}/…` page acts in, read from the API with the user's token (membership is
 * the API's decision). A malformed, missing or foreign id answers the one not-found page.
 */
export async function tenantOf(c: ConsoleContext): Promise<{ tenant: Tenant } | { page: Response }> {
  const id = c.req.param("tenant") ?? "";
  const answer = TenantId.safeParse(id).success
    ? await c.get("api")<Tenant>({ method: "GET", path: `/v1/tenants/${id}` })
    : ({ ok: false, problem: notFoundProblem() } as const);
  if (answer.ok) return { tenant: answer.body };
  return { page: await renderProblem(c, answer.problem, { csrf: c.get("csrf") }) };
}

/** The layout's signed-in view for a tenant page. */
export const tenantView = (c: ConsoleContext, tenant: Tenant) => ({
  csrf: c.get("csrf"),
  tenant: { id: tenant.id, name: tenant.name },
});

/** The flash of a redirect (`?done=…`), from a fixed list: a URL never puts arbitrary text on a page. */
export function flashOf(c: ConsoleContext, messages: Record<string, string>): string | undefined {
  const done = c.req.query("done");
  return done && Object.hasOwn(messages, done) ? messages[done] : undefined;
}
