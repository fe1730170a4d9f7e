import type { ClientMetadataFetcher } from "./cimd/fetcher.ts";

/** The authorization server's part of IdentityDeps. */
export interface OAuthSettings {
  /** The issuer identifier: the gateway's public origin (JWT_ISSUER), where the metadata is served. */
  issuer: string;
  /**
   * The seller console (ADR 0015): the one first-party client, known from the issuer and the REST
   * audience. Its tokens carry `aud` = the REST audience (the edge gateway accepts them as a
   * user's REST session); it asks for `resource` = `<issuer>/v1` and gets no consent page.
   */
  firstParty: FirstPartyClient;
  /** The canonical URIs tokens may be issued for (RFC 8707), e.g. the MCP server's `https://…/mcp`. */
  resources: string[];
  /** Authorization codes live this long (OAuth 2.1 recommends at most 10 minutes; clients exchange at once). */
  codeTtlMs: number;
  /** Time to sign in and consent after the authorization request. */
  interactionTtlMs: number;
  cimd: ClientMetadataFetcher;
  /** RFC 7591 registrations allowed per client address in any hour. */
  registrationsPerHour: number;
  /** A registered client never used for a token is deleted this long after its registration. */
  unusedClientTtlMs: number;
}

/** The console's client: its id, name, the one redirect URI, the resource URL it names and the audience its tokens get. */
export interface FirstPartyClient {
  clientId: string;
  name: string;
  redirectUri: string;
  resource: string;
  audience: string;
}
