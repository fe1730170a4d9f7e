import type { EventEnvelope } from "@flowstate/contracts/events/envelope";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { NotifyDeps } from "../deps.ts";
import type { Message } from "../messages/message-of.ts";
import { enqueueMessage } from "./enqueue-message.ts";
import { enqueuePersonMail } from "./enqueue-person-mail.ts";

/** An offer change's result: to the tenant's channels, and to the person who asked for it. */
export async function offerResult(
  em: EntityManager,
  deps: NotifyDeps,
  event: Pick<EventEnvelope, "id" | "occurred_at" | "actor">,
  message: Message,
): Promise<void> {
  await enqueueMessage(em, deps, event, message);
  await enqueuePersonMail(em, deps, event, message);
}
