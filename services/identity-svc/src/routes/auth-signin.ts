import { SignInRequest } from "@flowstate/contracts/rest/identity/auth";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { signIn } from "../verbs/sign-in.ts";

export function registerSignIn(app: IdentityApp): void {
  app.post("/v1/auth/signin", async (c) => {
    const input = await readJson(c, SignInRequest);
    c.header("cache-control", "no-store"); // RFC 6749 section 5.1: token answers are never cached
    return c.json(await signIn({ ctx: c.get("ctx"), input }), 200);
  });
}
