import { ApiKeyVerifyRequest } from "@flowstate/contracts/internal/identity";
import { readJson } from "@flowstate/shared/http/validate";
import type { IdentityApp } from "../http/env.ts";
import { verifyApiKey } from "../verbs/verify-api-key.ts";

/** POST, not GET: the key travels in the body, never in a URL that proxies and logs keep. */
export function registerInternalApiKeyVerify(app: IdentityApp): void {
  app.post("/internal/v1/api-keys/verify", async (c) => {
    const { key } = await readJson(c, ApiKeyVerifyRequest);
    return c.json(await verifyApiKey({ ctx: c.get("ctx"), key }), 200);
  });
}
