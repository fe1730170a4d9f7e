import type { SignUpRequest, SignUpResponse } from "@flowstate/contracts/rest/identity/auth";
import { newId } from "@flowstate/shared/ids/new-id";
import { UniqueConstraintViolationException } from "@mikro-orm/postgresql";
import { emit, inTransaction, now, type ServiceContext } from "../context.ts";
import { hashPassword } from "../crypto/password.ts";
import { User } from "../db/entities.ts";

export const emailKey = (email: string): string => email.trim().toLowerCase();

/**
 * Creates an account. An e-mail that already has an account gets the SAME answer (201 with a
 * well-formed `sub` that belongs to nobody) after the same Argon2 work, so the answer and its
 * timing do not say whether the address is registered; the real owner can be told through the
 * SignUpAttemptedForExistingAccount event. See the README ("Sign-up of an existing e-mail") for the
 * residual signal (the caller cannot then sign in) and why it is accepted.
 */
export async function signUp({ ctx, input }: { ctx: ServiceContext; input: SignUpRequest }): Promise<SignUpResponse> {
  const key = emailKey(input.email);
  // Hash first, whatever happens next: both branches must cost the same.
  const passwordHash = await hashPassword(input.password, ctx.deps.password.params);
  const sub = newId("usr");
  try {
    await inTransaction(ctx, async (em) => {
      const existing = await em.findOne(User, { email_key: key });
      if (existing) {
        // Anonymous actor (the caller's default): whoever tried is not known to be the account's owner.
        emit(ctx, em, "SignUpAttemptedForExistingAccount.v1", { sub: existing.sub }, { subject: existing.sub });
        return;
      }
      em.create(User, {
        sub,
        email: input.email.trim(),
        email_key: key,
        name: input.name,
        picture_url: null,
        password_hash: passwordHash,
        status: "active",
        disabled: false,
        tokens_valid_after: new Date(0),
        created_at: now(ctx),
        disabled_at: null,
        deleted_at: null,
      });
      // The caller is anonymous until now: the person signing up is the new account.
      emit(ctx, em, "UserSignedUp.v1", { sub }, { subject: sub, actor: { kind: "user", sub } });
    });
  } catch (err) {
    // Two sign-ups of one address at once: the loser sees the unique index, and answers as if the
    // address had been taken before it looked (which, by commit order, it was).
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
  }
  return { sub };
}
