import {
  type CreatedEndpoint,
  type CreateEndpoint,
  NotificationType,
} from "@flowstate/contracts/rest/notify/endpoints";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import { newId } from "@flowstate/shared/ids/new-id";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import { newSecret } from "../delivery/sign.ts";
import { checkEndpointUrl } from "../delivery/url-rule.ts";
import type { NotifyDeps } from "../deps.ts";
import { ENDPOINT_COLUMNS, type EndpointRow, endpointView } from "./endpoint-view.ts";

/** Endpoints per tenant (ADR 0017). */
export const MAX_ENDPOINTS = 20;

/**
 * Registers an endpoint of the tenant after its URL passed the registration rule (url-rule.ts);
 * a webhook gets its signing secret, answered this once.
 */
export async function createEndpoint(
  call: CallContext<NotifyDeps>,
  tenantId: string,
  body: CreateEndpoint,
): Promise<CreatedEndpoint> {
  await checkEndpointUrl(body.url, body.kind, call.deps.delivery);
  const secret = body.kind === "webhook" ? newSecret() : null;
  const types = body.types ? [...new Set(body.types)] : [...NotificationType.options];
  return call.transaction(async (em) => {
    // Each endpoint multiplies the tenant's deliveries: a bound, counted under a per-tenant lock.
    await em.execute("SELECT pg_advisory_xact_lock(hashtext(?))", [`notify-endpoints:${tenantId}`]);
    const [{ n }] = (await em.execute<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${call.table("endpoint")} WHERE tenant_id = ?`,
      [tenantId],
    )) as [{ n: number }];
    if (n >= MAX_ENDPOINTS)
      throw new DomainError(
        "unprocessable",
        "ENDPOINT_LIMIT_REACHED",
        `a tenant has at most ${MAX_ENDPOINTS} endpoints`,
      );
    const [row] = await em.execute<EndpointRow[]>(
      `INSERT INTO ${call.table("endpoint")} (id, tenant_id, kind, url, types, description, secret)
       VALUES (?, ?, ?, ?, ?::text[], ?, ?) RETURNING ${ENDPOINT_COLUMNS}`,
      [newId("whe"), tenantId, body.kind, body.url, `{${types.join(",")}}`, body.description ?? null, secret],
    );
    return { ...endpointView(row!), secret };
  });
}
