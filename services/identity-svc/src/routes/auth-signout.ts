import type { IdentityApp } from "../http/env.ts";
import { signOut } from "../verbs/sign-out.ts";

export function registerSignOut(app: IdentityApp): void {
  app.post("/v1/auth/signout", async (c) => {
    await signOut({ ctx: c.get("ctx") });
    return c.body(null, 204);
  });
}
