import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { NotifyDeps } from "../deps.ts";
import type { Message } from "../messages/message-of.ts";
import { recordMessage } from "./enqueue-message.ts";
import { enqueuePersonMail } from "./enqueue-person-mail.ts";
import { notifyTombstones } from "./forget-tenant.ts";

/**
 * An offer change's result: to the tenant's channels, and to the person who asked for it; neither
 * for a soft-deleted tenant (forget-tenant.ts, checked once for both).
 */
export async function offerResult(
  em: EntityManager,
  deps: NotifyDeps,
  event: Pick<EventEnvelope, "id" | "occurred_at" | "actor">,
  message: Message,
): Promise<void> {
  if (await notifyTombstones(deps).forgotten(em, message.tenantId)) return;
  await recordMessage(em, deps, event, message);
  await enqueuePersonMail(em, deps, event, message);
}
