import { timingSafeEqual } from "node:crypto";
import { type EntityManager, LockMode } from "@mikro-orm/postgresql";
import { now, type ServiceContext, table } from "../../context.ts";
import { randomSecret, sha256 } from "../../crypto/secret-token.ts";
import { type AuthorizationRequest, OAuthInteraction } from "../db/entities.ts";
import { PageError } from "../pages/error-page.ts";

/**
 * One authorization in progress, between GET /oauth/authorize and the consent. The id and the CSRF
 * token are random (256 bits), travel only in the page's hidden fields, and are stored hashed. The
 * CSRF token is replaced at sign-in, so only the browser that signed in holds the one the consent
 * form needs (whoever started the request, e.g. an attacker handing a victim the link, does not).
 */
export async function createInteraction(
  ctx: ServiceContext,
  em: EntityManager,
  request: AuthorizationRequest,
): Promise<{ interaction: string; csrf: string }> {
  const interaction = randomSecret();
  const csrf = randomSecret();
  const at = now(ctx);
  // Expired interactions, and codes a day past expiry (kept that long so a replay still revokes
  // what the code issued), are swept a few at a time by the requests that start new ones. Rows
  // another transaction holds are skipped (the next sweep takes them): an account's deletion
  // deletes its codes, then its interactions, the order opposite to this one, and the two could
  // otherwise wait for each other.
  await em.execute(
    `DELETE FROM "${ctx.deps.schema}"."oauth_interaction" WHERE id_hash IN (
       SELECT id_hash FROM "${ctx.deps.schema}"."oauth_interaction" WHERE expires_at < ? LIMIT 20 FOR UPDATE SKIP LOCKED)`,
    [at],
  );
  await em.execute(
    `DELETE FROM "${ctx.deps.schema}"."oauth_code" WHERE code_hash IN (
       SELECT code_hash FROM "${ctx.deps.schema}"."oauth_code" WHERE expires_at < ? LIMIT 20 FOR UPDATE SKIP LOCKED)`,
    [new Date(at.getTime() - 24 * 3600_000)],
  );
  em.create(OAuthInteraction, {
    id_hash: sha256(interaction),
    csrf_hash: sha256(csrf),
    request,
    sub: null,
    auth_time: null,
    created_at: at,
    expires_at: new Date(at.getTime() + ctx.deps.oauth.interactionTtlMs),
  });
  return { interaction, csrf };
}

export const expiredInteraction = () =>
  new PageError(
    400,
    "This sign-in has expired",
    "The authorization request is no longer valid (it expired, was already used, or the form was tampered with).",
    "INTERACTION_EXPIRED",
  );

/** The interaction the form names, locked, when its CSRF token matches; otherwise the expired page. */
export async function openInteraction(
  ctx: ServiceContext,
  em: EntityManager,
  form: { interaction: string; csrf: string },
): Promise<OAuthInteraction> {
  const row = await em.findOne(
    OAuthInteraction,
    { id_hash: sha256(form.interaction) },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (!row || row.expires_at <= now(ctx)) throw expiredInteraction();
  const a = Buffer.from(row.csrf_hash, "hex");
  const b = Buffer.from(sha256(form.csrf), "hex");
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw expiredInteraction();
  return row;
}

/**
 * The signed-in account's row FOR SHARE, taken before the interaction's (openInteraction): the
 * sign-in and consent steps write rows naming the account (a device token, a code), and every
 * identity key is deferred, so without this their check takes the account's row at COMMIT, last,
 * while deleting that account holds it and then deletes the account's interactions: each waited
 * for the other, a 500 (consent-delete-race.test.ts). `sub` absent: the interaction's own account,
 * read here unlocked; the caller refuses the step if openInteraction then finds another.
 */
export async function lockAccountOf(
  ctx: ServiceContext,
  em: EntityManager,
  interaction: string,
  sub?: string,
): Promise<string | null> {
  const account =
    sub ??
    (
      await em.execute<{ sub: string | null }[]>(
        `SELECT sub FROM ${table(ctx, "oauth_interaction")} WHERE id_hash = ?`,
        [sha256(interaction)],
      )
    )[0]?.sub ??
    null;
  if (account) await em.execute(`SELECT 1 FROM ${table(ctx, "app_user")} WHERE sub = ? FOR SHARE`, [account]);
  return account;
}
