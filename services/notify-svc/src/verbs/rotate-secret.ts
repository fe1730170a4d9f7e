import { notFound } from "@flowstate/shared/errors/domain-error";
import type { CallContext } from "@flowstate/shared/seam/call-context";
import { newSecret } from "../delivery/sign.ts";
import type { NotifyDeps } from "../deps.ts";
import { isoOrNull } from "./endpoint-view.ts";

/**
 * A new signing secret for a webhook (Standard Webhooks rotation): the current one becomes the
 * previous one, which keeps signing beside the new one for SECRET_OVERLAP_SECONDS (24 h) so the
 * receiver can switch without losing a message. A Slack endpoint has no secret: missing.
 */
export async function rotateSecret(
  call: CallContext<NotifyDeps>,
  tenantId: string,
  id: string,
): Promise<{ secret: string; previous_valid_until: string | null }> {
  const secret = newSecret();
  return call.transaction(async (em) => {
    const [row] = await em.execute<{ previous_valid_until: string | null }[]>(
      `UPDATE ${call.table("endpoint")}
          SET previous_secret = secret, secret = ?,
              previous_valid_until = now() + make_interval(secs => ?)
        WHERE tenant_id = ? AND id = ? AND kind = 'webhook' RETURNING previous_valid_until`,
      [secret, call.deps.delivery.secretOverlapMs / 1000, tenantId, id],
    );
    if (!row) throw notFound("endpoint");
    return { secret, previous_valid_until: isoOrNull(row.previous_valid_until) };
  });
}
