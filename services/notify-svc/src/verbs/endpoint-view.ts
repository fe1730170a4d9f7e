import type { NotificationEndpoint } from "@flowstate/contracts/rest/notify/endpoints";

export interface EndpointRow {
  id: string;
  tenant_id: string;
  kind: "webhook" | "slack";
  url: string;
  types: string[];
  description: string | null;
  status: "enabled" | "disabled";
  disabled_at: string | null;
  created_at: string;
}

/** The columns an endpoint is shown from (never its secrets). */
export const ENDPOINT_COLUMNS = "id, tenant_id, kind, url, types, description, status, disabled_at, created_at";

// Raw queries answer timestamptz as PostgreSQL's text; the API speaks RFC 3339.
export const iso = (v: unknown) => new Date(v as string).toISOString();
export const isoOrNull = (v: unknown) => (v == null ? null : iso(v));

/** An endpoint as the API shows it: a Slack URL's path is its credential, so only its origin is shown. */
export function endpointView(r: EndpointRow): NotificationEndpoint {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    kind: r.kind,
    url: r.kind === "slack" ? `${new URL(r.url).origin}/…` : r.url,
    types: r.types as NotificationEndpoint["types"],
    description: r.description,
    status: r.status,
    disabled_at: isoOrNull(r.disabled_at),
    created_at: iso(r.created_at),
  };
}
