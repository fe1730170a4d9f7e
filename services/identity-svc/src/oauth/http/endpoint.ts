import type { Context } from "hono";
import type { IdentityEnv } from "../../http/env.ts";
import { OAuthProtocolError, oauthErrorResponse } from "./oauth-error.ts";

/**
 * Runs a protocol endpoint (token, registration, revocation): an OAuthProtocolError becomes the
 * RFC 6749 error answer; anything else goes to the app's one error mapping. Answers are never
 * cached (RFC 6749 section 5.1) and may be read by browser-based clients (no credentials involved).
 */
export async function oauthEndpoint(c: Context<IdentityEnv>, handler: () => Promise<Response>): Promise<Response> {
  try {
    const res = await handler();
    res.headers.set("cache-control", "no-store");
    res.headers.set("access-control-allow-origin", "*");
    return res;
  } catch (err) {
    if (err instanceof OAuthProtocolError) return oauthErrorResponse(c, err);
    throw err;
  }
}
