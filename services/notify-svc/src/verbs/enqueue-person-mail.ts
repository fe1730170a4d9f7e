import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import { qualifiedTable } from "@flowstate/shared/seam/table";
import type { EntityManager } from "@mikro-orm/postgresql";
import { wakeOnCommit } from "../delivery/wake.ts";
import type { NotifyDeps } from "../deps.ts";
import type { Message } from "../messages/message-of.ts";

/**
 * In the consumer's transaction: the e-mail to the person who asked for an offer change (the
 * event's actor: a user, or an API key's creator), about its result. Nothing for a change the
 * system made. The preference and the address are read at sending (send-person-mail.ts). The
 * caller has checked that the tenant was not forgotten (offer-result.ts).
 */
export async function enqueuePersonMail(
  em: EntityManager,
  deps: NotifyDeps,
  event: Pick<EventEnvelope, "id" | "actor">,
  message: Message,
): Promise<void> {
  const actor = event.actor;
  if (actor.kind !== "user" && actor.kind !== "api_key") return;
  await em.execute(
    `INSERT INTO ${qualifiedTable(deps.schema, "person_mail")} (event_id, tenant_id, sub, type, body)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
    [event.id, message.tenantId, actor.sub, message.type, JSON.stringify(message.data)],
  );
  await wakeOnCommit(em, deps.schema);
}
