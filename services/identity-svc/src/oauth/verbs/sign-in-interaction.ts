import { DomainError } from "@flowstate/shared/errors/domain-error";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { verifyPassword } from "../../crypto/password.ts";
import { randomSecret, sha256 } from "../../crypto/secret-token.ts";
import { User } from "../../db/entities.ts";
import { issueDeviceToken } from "../../verbs/sign-in-device.ts";
import { clearSignInFailures, reserveSignInAttempt, type SignInGate } from "../../verbs/sign-in-throttle.ts";
import { emailKey } from "../../verbs/sign-up.ts";
import type { AuthorizationRequest } from "../db/entities.ts";
import type { TenantChoice } from "../pages/consent-page.ts";
import { expiredInteraction, lockAccountOf, openInteraction } from "./interactions.ts";

export type SignInOutcome =
  | {
      kind: "consent";
      request: AuthorizationRequest;
      interaction: string;
      csrf: string;
      email: string;
      tenants: TenantChoice[];
      /** A fresh device token for the browser's device cookie (the one it sent, if any, is spent). */
      deviceToken: string;
    }
  | { kind: "retry"; request: AuthorizationRequest; interaction: string; csrf: string; email: string; error: string };

const WRONG = "The e-mail address or the password is wrong.";

/**
 * The sign-in step of an authorization: the same rules as POST /v1/auth/signin (one answer for
 * an unknown e-mail and a wrong password, both costing one Argon2id verification; a disabled
 * account is told so only after the right password), but no REST session is opened: the
 * interaction records who signed in and when (`auth_time` of the tokens), and its CSRF token is
 * replaced. The answer carries the user's active tenants for the consent page. The browser's device
 * cookie (`deviceToken`) counts its attempts apart from the address's, as a device token does on
 * the REST sign-in, and a success sets a new one.
 */
export async function signInInteraction({
  ctx,
  form,
  deviceToken,
}: {
  ctx: ServiceContext;
  form: Record<string, string>;
  deviceToken?: string | undefined;
}): Promise<SignInOutcome> {
  if (!form.interaction || !form.csrf) throw expiredInteraction();
  const input = {
    interaction: form.interaction,
    csrf: form.csrf,
    email: form.email ?? "",
    password: form.password ?? "",
  };
  // A stale or forged interaction is refused before any Argon2id work is spent on it.
  await inTransaction(ctx, (em) => openInteraction(ctx, em, input));
  // Out-of-range values cost the same Argon2id work as a wrong password and get the same answer.
  const key = input.email.length > 0 && input.email.length <= 254 ? emailKey(input.email) : null;
  const candidate = key !== null ? await ctx.em.findOne(User, { email_key: key, status: "active" }) : null;
  // The same backoff as POST /v1/auth/signin: this page is another door for guesses.
  let throttled: number | null = null;
  let gate: SignInGate | null = null;
  if (key !== null) {
    try {
      gate = await reserveSignInAttempt(ctx, { email: input.email, sub: candidate?.sub ?? null, deviceToken });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== "SIGN_IN_THROTTLED") throw err;
      throttled = err.retryAfter ?? 1;
    }
  }
  const ok =
    throttled === null &&
    (await verifyPassword(input.password.slice(0, 256), candidate?.password_hash ?? ctx.deps.password.dummyHash));
  if (candidate && ok && gate && input.password.length <= 256) await clearSignInFailures(ctx, gate);

  return inTransaction(ctx, async (em) => {
    // The account before the interaction (lockAccountOf), when this step will sign it in.
    if (candidate && ok) await lockAccountOf(ctx, em, input.interaction, candidate.sub);
    const row = await openInteraction(ctx, em, input);
    const retry = (error: string): SignInOutcome => ({
      kind: "retry",
      request: row.request,
      interaction: input.interaction,
      csrf: input.csrf,
      email: input.email,
      error,
    });
    if (throttled !== null) return retry(`Too many failed sign-ins; try again in ${throttled} s.`);
    if (!candidate || !ok || input.password.length > 256) return retry(WRONG);
    const user = await em.findOne(User, { sub: candidate.sub }, { refresh: true });
    if (user?.status !== "active") return retry(WRONG);
    if (user.disabled) return retry("This account is disabled.");
    const csrf = randomSecret();
    row.sub = user.sub;
    row.auth_time = now(ctx);
    row.csrf_hash = sha256(csrf);
    const tenants = await em.execute<TenantChoice[]>(
      `SELECT t.id, t.name, m.role FROM ${table(ctx, "membership")} m JOIN ${table(ctx, "tenant")} t ON t.id = m.tenant_id
        WHERE m.sub = ? AND t.status = 'active' ORDER BY t.name, t.id`,
      [user.sub],
    );
    return {
      kind: "consent",
      request: row.request,
      interaction: input.interaction,
      csrf,
      email: user.email ?? input.email,
      tenants,
      deviceToken: await issueDeviceToken(ctx, em, user.sub, gate?.kind === "device" ? gate.tokenHash : null),
    };
  });
}
