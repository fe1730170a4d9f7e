import { doorOfInstance, INVALIDATIONS_PUSH_PATH } from "@flowstate/contracts/internal/doors";
import type { Invalidation } from "@flowstate/contracts/internal/identity";
import { IDENTITY_HEADER, sha256Base64url } from "@flowstate/shared/auth/identity-assertion";
import { type Keyring, serviceSigner } from "@flowstate/shared/auth/keyring";
import { internalCall } from "@flowstate/shared/http/internal-call";
import type { Logger } from "@flowstate/shared/log/logger";
import type { DoorLeases, LiveDoor } from "./door-leases.ts";

export interface DoorPushSettings {
  /** How long one renewal keeps a door's lease (the door renews about every second). */
  leaseMs: number;
  /** How long a push waits for a door's ack before the door is evicted. */
  pushTimeoutMs: number;
}

/** 4 s lease (a door renews every second, so three renewals may fail in a row), 1 s to ack a push. */
export const DEFAULT_DOOR_PUSH: DoorPushSettings = { leaseMs: 4_000, pushTimeoutMs: 1_000 };

export interface PushOutcome {
  doors: number;
  evicted: string[];
  /** How long the call waited for evicted doors' leases to run out. */
  waitedMs: number;
}

/**
 * Makes a call's invalidations effective at every door instance before the call answers (ADR
 * 0011): posts them to every door with a live lease, in parallel, and waits for each ack (204, sent
 * after the door applied them). A door that does not ack within `pushTimeoutMs` (stalled, gone,
 * unreachable) is evicted, and the call then waits until that door's lease has run out: by then
 * the door trusts none of its cached facts (it drops them on every request while its lease is not
 * valid, and once more when it registers again). Run only after the change committed.
 *
 * @example
 * const push = invalidationPusher({ leases, keyring: deps.callerKeys, settings: DEFAULT_DOOR_PUSH });
 * await push([{ scope: "session", sid, sub }], logger); // every door has dropped the session
 */
export function invalidationPusher(o: { leases: DoorLeases; keyring: Keyring; settings: DoorPushSettings }) {
  // Each push is signed with identity-svc's pair with the instance's door (ADR 0014): a door holds
  // the key of pushes to itself only, so it can forge no push to the other door.
  const signers = {
    "edge-gateway": serviceSigner(o.keyring, "edge-gateway"),
    "mcp-gateway": serviceSigner(o.keyring, "mcp-gateway"),
  };

  async function pushOne(door: LiveDoor, body: string, bodySha256: string): Promise<boolean> {
    const name = doorOfInstance(door.instanceId);
    // A row no route could have written (the id is validated there): nothing to sign for, no ack.
    if (name === undefined) return false;
    try {
      const answer = await internalCall(new URL(INVALIDATIONS_PUSH_PATH, door.pushUrl), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [IDENTITY_HEADER]: signers[name]({ method: "POST", target: INVALIDATIONS_PUSH_PATH, bodySha256 }),
        },
        body,
        timeoutMs: o.settings.pushTimeoutMs,
      });
      await answer.discard();
      return answer.status === 204;
    } catch {
      return false;
    }
  }

  /** `atCommit`: the doors the call's transaction read before it committed (door-leases.ts `atCommit`), else read now. */
  return async function push(
    list: readonly Invalidation[],
    logger: Logger,
    atCommit?: readonly LiveDoor[],
  ): Promise<PushOutcome> {
    const doors = atCommit ?? (await o.leases.live());
    if (doors.length === 0) return { doors: 0, evicted: [], waitedMs: 0 };
    const body = JSON.stringify(list);
    const bodySha256 = sha256Base64url(body);
    const acks = await Promise.all(doors.map((door) => pushOne(door, body, bodySha256)));
    const missed = doors.filter((_, i) => !acks[i]);
    if (missed.length === 0) return { doors: doors.length, evicted: [], waitedMs: 0 };
    const remaining = await Promise.all(missed.map((door) => o.leases.evict(door.instanceId)));
    const waitMs = Math.max(...remaining);
    const evicted = missed.map((d) => d.instanceId);
    logger.warn(
      { evicted, waitMs },
      "door instances did not ack an invalidation push: evicted; answering once their leases ran out",
    );
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    return { doors: doors.length, evicted, waitedMs: waitMs };
  };
}
export type InvalidationPusher = ReturnType<typeof invalidationPusher>;
