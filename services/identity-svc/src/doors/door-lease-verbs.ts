import type { DoorInstanceId, DoorLease } from "@flowstate/contracts/internal/doors";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";

/**
 * A door holds leases for its own instances only (the route's `callers` already admit only the
 * doors): identity-svc signs each push with its pair with the door the instance id names
 * (`identity-svc--<door>`, ADR 0014), so an instance registered by another door could never ack.
 */
function requireDoor(ctx: ServiceContext, instanceId: DoorInstanceId): void {
  const actor = ctx.actor;
  if (actor.kind !== "service" || !instanceId.startsWith(`${actor.service}-`))
    throw new DomainError("forbidden", "FORBIDDEN", "a door holds leases for its own instances only");
}

/** Registers or renews a door instance's lease (ADR 0011). */
export async function renewDoorLease(input: {
  ctx: ServiceContext;
  instanceId: DoorInstanceId;
  pushUrl: string;
}): Promise<DoorLease> {
  requireDoor(input.ctx, input.instanceId);
  const { doors } = input.ctx.deps;
  const { registered } = await doors.leases.renew(input.instanceId, input.pushUrl, doors.settings.leaseMs);
  if (registered) input.ctx.logger.info({ instance: input.instanceId }, "door instance registered");
  return { lease_ms: doors.settings.leaseMs, registered };
}

/** Ends a door instance's lease (its shutdown): pushes stop going to it. */
export async function leaveDoorLease(input: { ctx: ServiceContext; instanceId: DoorInstanceId }): Promise<void> {
  requireDoor(input.ctx, input.instanceId);
  await input.ctx.deps.doors.leases.leave(input.instanceId);
  input.ctx.logger.info({ instance: input.instanceId }, "door instance deregistered");
}
