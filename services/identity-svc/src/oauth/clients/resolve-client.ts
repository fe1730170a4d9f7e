import { createHash } from "node:crypto";
import type { ServiceContext } from "../../context.ts";
import { isMetadataDocumentUrl } from "../cimd/client-document.ts";
import { CimdError } from "../cimd/fetch-document.ts";
import { OAuthClient } from "../db/entities.ts";

/** A client as the authorization endpoint and the consent page need it. */
export interface ResolvedClient {
  clientId: string;
  /** `cli_…`: the registered id, or a digest of the metadata document's URL (for the REST list and revoke). */
  ref: string;
  kind: "registered" | "metadata_document" | "first_party";
  /** The document's `client_name`, else the registration's, else the client id. */
  name: string;
  /** The metadata document's host, shown so a name cannot impersonate another client's domain. */
  host: string | null;
  redirectUris: string[];
}

/** Why a client id cannot be used: unknown, or its metadata document refused (reason is a stable word). */
export class UnknownClientError extends Error {
  override name = "UnknownClientError";
  readonly reason: string;
  constructor(reason: string) {
    super(`client not usable: ${reason}`);
    this.reason = reason;
  }
}

/** `cli_<32 hex>` for a metadata-document client: stable per URL, never mistaken for a registered id. */
export const clientRefOf = (clientId: string): string =>
  clientId.startsWith("https://")
    ? `cli_${createHash("sha256").update(clientId).digest("hex").slice(0, 32)}`
    : clientId;

/**
 * Finds a client: the console's id is the first-party client (clients/first-party.ts); an https client id is a Client ID Metadata Document (fetched, validated,
 * cached); anything else must be a client registered here through RFC 7591.
 */
export async function resolveClient(ctx: ServiceContext, clientId: string): Promise<ResolvedClient> {
  const console = ctx.deps.oauth.firstParty;
  if (clientId === console.clientId)
    return {
      clientId,
      ref: clientId,
      kind: "first_party",
      name: console.name,
      host: null,
      redirectUris: [console.redirectUri],
    };
  if (clientId.startsWith("https://")) {
    if (!isMetadataDocumentUrl(clientId)) throw new UnknownClientError("invalid_client_id_url");
    try {
      const doc = await ctx.deps.oauth.cimd.get(clientId);
      const host = new URL(clientId).host;
      return {
        clientId,
        ref: clientRefOf(clientId),
        kind: "metadata_document",
        name: doc.client_name ?? host,
        host,
        redirectUris: doc.redirect_uris,
      };
    } catch (err) {
      if (!(err instanceof CimdError)) throw err;
      ctx.logger.warn({ reason: err.reason, host: new URL(clientId).host }, "client metadata document refused");
      throw new UnknownClientError(err.reason);
    }
  }
  if (!/^cli_[0-9A-Za-z]{10,40}$/.test(clientId)) throw new UnknownClientError("unknown_client");
  const row = await ctx.em.findOne(OAuthClient, { client_id: clientId });
  if (!row) throw new UnknownClientError("unknown_client");
  return {
    clientId,
    ref: clientId,
    kind: "registered",
    name: row.client_name ?? clientId,
    host: null,
    redirectUris: row.redirect_uris,
  };
}
