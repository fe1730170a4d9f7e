import { RefreshRequest } from "@flowstate/contracts/rest/identity/auth";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { refreshTokens } from "../verbs/refresh-tokens.ts";

export function registerRefresh(app: IdentityApp): void {
  app.post("/v1/auth/refresh", async (c) => {
    const input = await readJson(c, RefreshRequest);
    c.header("cache-control", "no-store");
    return c.json(await refreshTokens({ ctx: c.get("ctx"), input }), 200);
  });
}
