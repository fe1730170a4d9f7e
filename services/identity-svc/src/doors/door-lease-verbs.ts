import type { DoorInstanceId, DoorLease } from "@flowstate/contracts/internal/doors";
import { DomainError } from "@flowstate/shared/errors/domain-error";
import type { ServiceContext } from "../context.ts";

/** Only the doors themselves hold leases: anything else signing a service assertion is refused. */
function requireDoor(ctx: ServiceContext): void {
  const actor = ctx.actor;
  // mcp-gateway runs the edge gateway's pipeline, which signs its lookups as edge-gateway.
  if (actor.kind !== "service" || (actor.service !== "edge-gateway" && actor.service !== "mcp-gateway"))
    throw new DomainError("forbidden", "FORBIDDEN", "only a door instance holds a lease");
}

/** Registers or renews a door instance's lease (ADR 0011). */
export async function renewDoorLease(input: {
  ctx: ServiceContext;
  instanceId: DoorInstanceId;
  pushUrl: string;
}): Promise<DoorLease> {
  requireDoor(input.ctx);
  const { doors } = input.ctx.deps;
  const { registered } = await doors.leases.renew(input.instanceId, input.pushUrl, doors.settings.leaseMs);
  if (registered) input.ctx.logger.info({ instance: input.instanceId }, "door instance registered");
  return { lease_ms: doors.settings.leaseMs, registered };
}

/** Ends a door instance's lease (its shutdown): pushes stop going to it. */
export async function leaveDoorLease(input: { ctx: ServiceContext; instanceId: DoorInstanceId }): Promise<void> {
  requireDoor(input.ctx);
  await input.ctx.deps.doors.leases.leave(input.instanceId);
  input.ctx.logger.info({ instance: input.instanceId }, "door instance deregistered");
}
