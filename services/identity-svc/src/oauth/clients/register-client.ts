import { createHmac } from "node:crypto";
import type { ClientRegistrationResponse } from "@flowstate/contracts/rest/identity/oauth";
import { ClientRegistrationRequest } from "@flowstate/contracts/rest/identity/oauth";
import { newId } from "@flowstate/shared/ids/new-id";
import { inTransaction, now, type ServiceContext, table } from "../../context.ts";
import { OAuthClient } from "../db/entities.ts";
import { OAuthProtocolError } from "../http/oauth-error.ts";
import { applicationTypeOf, registrableRedirectUri } from "../redirect-uri.ts";
import { parseScopes } from "../scopes.ts";
import { impersonatesFlowstate } from "./impersonation.ts";

const badMetadata = (d: string) => new OAuthProtocolError("invalid_client_metadata", d);
const HOUR_MS = 3600_000;

/**
 * Who registered, as stored: an HMAC of the client address (the key the sign-in throttle's rows
 * use, under another label), so the table keeps no addresses for the day an unused client lives.
 */
const registrantKey = (ctx: ServiceContext, address: string) =>
  createHmac("sha256", ctx.deps.signInThrottleKey).update(`oauth-register\n${address}`).digest("base64url");

/**
 * RFC 7591 dynamic registration of a public client: no secret is issued or kept, the token
 * endpoint method is always `none`, and only code and refresh grants exist. Redirect URIs must be
 * https, loopback http or a native app's private-use scheme (RFC 8252). The client id is ours
 * (`cli_…`, never an https URL, so it cannot be taken for a metadata document).
 *
 * Registration is open to anyone, so it is bounded (issue 20 finding 8): `registrationsPerHour`
 * per client address (429 temporarily_unavailable with Retry-After), capped metadata (the schema's
 * field caps; the route caps the body), no name that reads as Flowstate, and a client never used
 * for a token is deleted a day after its registration (forget-unused-clients.ts).
 */
export async function registerClient({
  ctx,
  body,
  clientAddress,
}: {
  ctx: ServiceContext;
  body: unknown;
  /** The caller's address as the edge gateway forwards it (`x-forwarded-for`). */
  clientAddress: string;
}): Promise<ClientRegistrationResponse> {
  if (typeof body === "object" && body !== null) {
    const b = body as Record<string, unknown>;
    if (b.token_endpoint_auth_method !== undefined && b.token_endpoint_auth_method !== "none")
      throw badMetadata("only public clients (token_endpoint_auth_method none) can register");
    if (
      Array.isArray(b.redirect_uris) &&
      b.redirect_uris.some((u) => typeof u !== "string" || !registrableRedirectUri(u))
    )
      throw new OAuthProtocolError(
        "invalid_redirect_uri",
        "redirect URIs must be https, http on a loopback address, or a private-use scheme, without a fragment",
      );
  }
  const parsed = ClientRegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") || "the metadata";
    throw badMetadata(`${field} is missing or invalid`);
  }
  const input = parsed.data;
  if (input.scope !== undefined && parseScopes(input.scope) === null) throw badMetadata("scope names an unknown scope");
  if (input.client_name !== undefined && impersonatesFlowstate(input.client_name))
    throw badMetadata("client_name must not name Flowstate: the consent page would show it as Flowstate itself");
  const answer: ClientRegistrationResponse = {
    client_id: newId("cli"),
    client_id_issued_at: Math.floor(now(ctx).getTime() / 1000),
    ...(input.client_name ? { client_name: input.client_name } : {}),
    redirect_uris: input.redirect_uris,
    grant_types: input.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: input.application_type ?? applicationTypeOf(input.redirect_uris),
    ...(input.scope ? { scope: input.scope } : {}),
    ...(input.client_uri ? { client_uri: input.client_uri } : {}),
  };
  const registeredBy = registrantKey(ctx, clientAddress);
  const at = now(ctx);
  await inTransaction(ctx, async (em) => {
    // One registration of an address at a time, so a parallel burst is counted exactly.
    await em.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`oauth-register:${registeredBy}`]);
    const recent = await em.execute<{ first: Date | null; n: number }[]>(
      `SELECT min(created_at) AS first, count(*)::int AS n FROM ${table(ctx, "oauth_client")}
        WHERE registered_by = ? AND created_at > ?`,
      [registeredBy, new Date(at.getTime() - HOUR_MS)],
    );
    const { first, n } = recent[0]!;
    if (n >= ctx.deps.oauth.registrationsPerHour) {
      // When the oldest registration of the window leaves it (the window is counted, not reset).
      const retryAfter = Math.max(1, Math.ceil((new Date(first!).getTime() + HOUR_MS - at.getTime()) / 1000));
      throw new OAuthProtocolError(
        "temporarily_unavailable",
        `too many client registrations from this address; retry in ${retryAfter} s`,
        429,
        retryAfter,
      );
    }
    em.create(OAuthClient, {
      client_id: answer.client_id,
      client_name: input.client_name ?? null,
      redirect_uris: input.redirect_uris,
      metadata: answer,
      created_at: at,
      registered_by: registeredBy,
      first_token_at: null,
    });
  });
  return answer;
}
