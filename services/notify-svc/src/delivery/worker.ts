import { type Listener, listen } from "@flowstate/shared/outbox/listen";
import type { NotifyDeps } from "../deps.ts";
import { attempt } from "./attempt.ts";
import { claimDue } from "./claim.ts";
import { recordOutcome } from "./record-outcome.ts";
import { sendNotices } from "./send-notices.ts";
import { sendPersonMail } from "./send-person-mail.ts";
import { wakeChannel } from "./wake.ts";

const BATCH = 20;

export interface DeliveryWorker {
  /** Look for due deliveries now (a replay, a test). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * The delivery loop: claim what is due, attempt each (in parallel, up to BATCH), record each
 * outcome, and go again at once while a round was full. Between rounds it sleeps until the poll
 * interval passes or a new delivery's commit wakes it (LISTEN on the schema's channel; the consumer
 * NOTIFYs in the transaction that enqueues), so a fresh message goes out within milliseconds and a
 * retry within the poll interval of its time. The durable state is the `delivery` table: a restart
 * resumes where it stopped.
 */
export async function startDeliveryWorker(
  deps: NotifyDeps,
  hooks: { onDisabled?: (endpointId: string) => void } = {},
): Promise<DeliveryWorker> {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(resolve, deps.delivery.pollMs);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let listener: Listener | undefined;
  const relisten = async (): Promise<void> => {
    if (stopped) return;
    try {
      listener = await listen(deps.orm, wakeChannel(deps.schema), wake, (err) => {
        deps.logger.warn({ err }, "delivery wake-up channel lost; polling until it is back");
        listener = undefined;
        setTimeout(() => void relisten(), deps.delivery.pollMs).unref();
      });
    } catch (err) {
      deps.logger.warn({ err }, "cannot listen for deliveries; polling");
    }
  };
  await relisten();

  const round = async (): Promise<number> => {
    const due = await claimDue(deps, BATCH);
    await Promise.all(
      due.map(async (d) => {
        const outcome = await attempt(deps, d);
        const { disabled } = await recordOutcome(deps, d, outcome);
        if (disabled) {
          deps.logger.warn({ endpoint_id: d.endpoint_id, tenant_id: d.tenant_id }, "endpoint disabled after failing");
          hooks.onDisabled?.(d.endpoint_id);
        }
      }),
    );
    // Notices of disabled endpoints (rare; partial indexes keep these looks cheap).
    await sendNotices(deps);
    // An offer change's result to the person who asked for it (person_mail).
    await sendPersonMail(deps);
    return due.length;
  };

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let claimed = 0;
      try {
        claimed = await round();
      } catch (err) {
        if (!stopped) deps.logger.error({ err }, "delivery round failed; retrying");
      }
      if (claimed < BATCH) await sleep();
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      wakeUp?.();
      await loop;
      await listener?.close();
    },
  };
}
