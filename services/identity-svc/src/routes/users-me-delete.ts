import type { IdentityApp } from "../http/env.ts";
import { deleteAccount } from "../verbs/delete-account.ts";
import { requireUser } from "../verbs/guards.ts";

export function registerDeleteMe(app: IdentityApp): void {
  app.delete("/v1/users/me", async (c) => {
    const ctx = c.get("ctx");
    const { sub } = requireUser(ctx);
    return c.json(await deleteAccount({ ctx, sub }), 200);
  });
}
