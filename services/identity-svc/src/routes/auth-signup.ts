import { SignUpRequest } from "@flowstate/contracts/rest/identity/auth";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { signUp } from "../verbs/sign-up.ts";

export function registerSignUp(app: IdentityApp): void {
  app.post("/v1/auth/signup", async (c) => {
    const input = await readJson(c, SignUpRequest);
    return c.json(await signUp({ ctx: c.get("ctx"), input }), 201);
  });
}
