import { UpdateProfileRequest } from "@flowstate/contracts/rest/identity/users";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { updateProfile } from "../verbs/update-profile.ts";

export function registerUpdateMe(app: IdentityApp): void {
  app.patch("/v1/users/me", async (c) => {
    const input = await readJson(c, UpdateProfileRequest);
    return c.json(await updateProfile({ ctx: c.get("ctx"), input }), 200);
  });
}
