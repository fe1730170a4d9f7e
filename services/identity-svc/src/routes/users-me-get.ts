import type { IdentityApp } from "../http/env.ts";
import { getProfile } from "../verbs/get-profile.ts";

export function registerGetMe(app: IdentityApp): void {
  app.get("/v1/users/me", async (c) => c.json(await getProfile({ ctx: c.get("ctx") }), 200));
}
