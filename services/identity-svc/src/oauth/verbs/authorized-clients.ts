import type { AuthorizedClient, AuthorizedClientList, OAuthScope } from "@flowstate/contracts/rest/identity/oauth";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { LockMode } from "@mikro-orm/postgresql";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { UserSession } from "../../db/entities.ts";
import { requireUser } from "../../verbs/lib/guards.ts";
import { revokeSession } from "../../verbs/revoke-session.ts";
import { OAuthCode } from "../db/entities.ts";

type Row = {
  sid: string;
  client_ref: string;
  client_id: string;
  client_name: string;
  resource: string;
  scope: string;
  tenant_id: string | null;
  created_at: Date;
  last_used_at: Date;
};

/**
 * The live grants (families neither revoked nor expired) of the caller, oldest first. The console's
 * own sign-ins are not "clients the user authorized" (they are the product, like a REST sign-in).
 */
async function liveGrants(ctx: ServiceContext, sub: string, clientRef?: string): Promise<Row[]> {
  return ctx.em.execute<Row[]>(
    `SELECT g.sid, g.client_ref, g.client_id, g.client_name, g.resource, g.scope, g.tenant_id, g.created_at, g.last_used_at
       FROM ${table(ctx, "oauth_grant")} g JOIN ${table(ctx, "user_session")} s ON s.sid = g.sid
      WHERE g.sub = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND g.client_id <> ?
        ${clientRef ? "AND g.client_ref = ?" : ""}
      ORDER BY g.created_at, g.sid`,
    clientRef
      ? [sub, now(ctx), ctx.deps.oauth.firstParty.clientId, clientRef]
      : [sub, now(ctx), ctx.deps.oauth.firstParty.clientId],
  );
}

/** The clients the caller authorized, one entry per client with the union of what its grants hold. */
export async function listAuthorizedClients({ ctx }: { ctx: ServiceContext }): Promise<AuthorizedClientList> {
  const { sub } = requireUser(ctx);
  const byClient = new Map<string, AuthorizedClient>();
  for (const g of await liveGrants(ctx, sub)) {
    const entry = byClient.get(g.client_ref) ?? {
      client_ref: g.client_ref,
      client_id: g.client_id,
      client_name: g.client_name,
      client_type: g.client_id.startsWith("https://") ? ("metadata_document" as const) : ("registered" as const),
      scopes: [],
      tenant_ids: [],
      resources: [],
      authorized_at: new Date(g.created_at).toISOString(),
      last_used_at: new Date(g.last_used_at).toISOString(),
    };
    const add = <T>(list: T[], values: T[]) => values.forEach((v) => void (list.includes(v) || list.push(v)));
    add(entry.scopes, g.scope.split(" ") as OAuthScope[]);
    add(entry.tenant_ids, g.tenant_id ? [g.tenant_id] : []);
    add(entry.resources, [g.resource]);
    const used = new Date(g.last_used_at).toISOString();
    if (used > entry.last_used_at) entry.last_used_at = used;
    byClient.set(g.client_ref, entry);
  }
  return { authorized_clients: [...byClient.values()] };
}

/**
 * Revokes everything the caller gave one client: every live family (its refresh tokens stop, its
 * access tokens fail the session check at the next call) and any code not yet exchanged. 404 when
 * the caller has no live grant for it, whether the client exists or not.
 */
export async function revokeAuthorizedClient({ ctx, clientRef }: { ctx: ServiceContext; clientRef: string }) {
  const { sub } = requireUser(ctx);
  const grants = await liveGrants(ctx, sub, clientRef);
  if (!grants.length) throw notFound("authorized client");
  const revoked = await inTransaction(ctx, async (em) => {
    const sessions = await em.find(
      UserSession,
      { sid: { $in: grants.map((g) => g.sid) }, sub },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const done = sessions.filter((s) => revokeSession(ctx, em, s, "client_revoked"));
    await em.nativeUpdate(OAuthCode, { sub, client_id: grants[0]!.client_id, used_at: null }, { used_at: now(ctx) });
    return done.map((s) => s.sid);
  });
  for (const sid of revoked) ctx.invalidations.push({ scope: "session", sid, sub });
}
