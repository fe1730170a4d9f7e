import { z } from "zod";

/**
 * The door lease (ADR 0011): every instance of a door (edge-gateway, mcp-gateway) registers with
 * identity-svc and renews about every second; identity-svc pushes each call's invalidations to
 * every instance whose lease is live, and waits for each ack (or for the lease of one that does
 * not ack to run out), before the revoking call answers. A door trusts its caches only while its
 * own lease is valid.
 */

/** `<door>-<random>`, made at boot: one per process, never reused. */
export const DoorInstanceId = z.string().regex(/^(edge-gateway|mcp-gateway)-[0-9a-z]{8,32}$/);
export type DoorInstanceId = z.infer<typeof DoorInstanceId>;

/** The door an instance id names (`mcp-gateway-0a1b2c3d` → `mcp-gateway`); undefined for anything else. */
export const doorOfInstance = (instanceId: string): "edge-gateway" | "mcp-gateway" | undefined =>
  DoorInstanceId.safeParse(instanceId).success
    ? (instanceId.slice(0, instanceId.lastIndexOf("-")) as "edge-gateway" | "mcp-gateway")
    : undefined;

/** PUT /internal/v1/doors/{instance}: register or renew, saying where pushes are accepted. */
export const DoorLeaseRequest = z.strictObject({
  /** The door's internal listener (METRICS_HOST:METRICS_PORT); pushes go to `<push_url>/internal/v1/invalidations`. */
  push_url: z.url({ protocol: /^https?$/ }).max(2048),
});
export type DoorLeaseRequest = z.infer<typeof DoorLeaseRequest>;

export const DoorLease = z.object({
  /** How long the lease lasts, counted by the door from when it SENT this renewal. */
  lease_ms: z.number().int().positive(),
  /**
   * True when this call created the registration: the door was unknown (first renewal, or evicted
   * after a push it did not ack), so pushes may have missed it and it must drop every cached fact.
   */
  registered: z.boolean(),
});
export type DoorLease = z.infer<typeof DoorLease>;

export const DoorPath = z.object({ instance: DoorInstanceId });

/** Where a door accepts identity-svc's pushes (POST, body InvalidationList, answer 204 once applied). */
export const INVALIDATIONS_PUSH_PATH = "/internal/v1/invalidations";

/**
 * The one process that pushes invalidations to the doors: it signs each push with its pair
 * `identity-svc--<door>` (contracts/src/internal/key-pairs.ts), and a door accepts no other signer.
 */
export const INVALIDATIONS_PUSHER = "identity-svc" as const;
