import { CONSOLE_CALLBACK_PATH, CONSOLE_CLIENT_ID, REST_RESOURCE_PATH } from "@flowstate/contracts/rest/identity/oauth";
import type { FirstPartyClient } from "../settings.ts";

/**
 * The seller console as a client (ADR 0015): everything about it follows from the issuer (the
 * edge gateway's public origin, which serves the console at `/app`) and the REST audience, so
 * nothing is registered or stored and no deployment can get it wrong. A canonical resource of
 * `<issuer>/v1` names the REST API; its tokens carry the REST audience the gateway checks.
 *
 * @example
 * firstPartyClient("https://api.flowstate.example", "flowstate-api").redirectUri
 * // "https://api.flowstate.example/app/auth/callback"
 */
export function firstPartyClient(issuer: string, audience: string): FirstPartyClient {
  const origin = new URL(issuer).origin;
  return {
    clientId: CONSOLE_CLIENT_ID,
    name: "Flowstate console",
    redirectUri: `${origin}${CONSOLE_CALLBACK_PATH}`,
    resource: `${origin}${REST_RESOURCE_PATH}`,
    audience,
  };
}

/** Whether an authorization request or grant belongs to the console. */
export const isFirstParty = (settings: { firstParty: FirstPartyClient }, clientId: string) =>
  clientId === settings.firstParty.clientId;
