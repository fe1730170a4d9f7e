import { z } from "zod";
import { registrableRedirectUri } from "../redirect-uri.ts";

/**
 * Whether a client id names a Client ID Metadata Document: an https URL with a path, without
 * fragment, user info or dot segments, written in the URL's own normal form (so the document's
 * `client_id` can be compared as a plain string, and one client has one spelling).
 */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith("https://") || clientId.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.href !== clientId || url.username || url.password || clientId.includes("#")) return false;
  if (url.pathname === "/" || /\/\.\.?(?:\/|$)/.test(url.pathname)) return false;
  return true;
}

/**
 * The document's members we use (RFC 7591 names). A metadata-document client is public: no
 * secret, token_endpoint_auth_method `none` (absent means none here); redirect URIs are required
 * and each must be one a client could register. Unknown members are ignored.
 */
export const ClientMetadataDocument = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.string().max(2000).optional(),
  redirect_uris: z
    .array(z.string().max(2000).refine(registrableRedirectUri, "not an acceptable redirect URI"))
    .min(1)
    .max(20),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.literal("none").optional(),
  client_secret: z.never({ error: "a metadata document must not carry a client secret" }).optional(),
  client_secret_expires_at: z.never().optional(),
  scope: z.string().max(500).optional(),
  application_type: z.enum(["native", "web"]).optional(),
});
export type ClientMetadataDocument = z.infer<typeof ClientMetadataDocument>;
