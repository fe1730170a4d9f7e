import { IdempotencyKey } from "@flowstate/contracts/rest/idempotency";
import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import { HttpProblem } from "@flowstate/shared/http/http-problem";
import { principalForChannel } from "@flowstate/shared/marketplace/principals";
import type { Context } from "hono";
import type { Caller, ServiceContext } from "../context.ts";
import type { OffersEnv } from "./env.ts";

/**
 * The verb context of a handler, from the seam's call: by the time a handler runs, the seam has
 * admitted the caller for this tenant with this route's role and key scope (the signed tenant is
 * the path's), and re-checked the credential of a write. The door the caller came through picks
 * the principal that reaches the seller's account (REST → backend, MCP → mcp-execution).
 */
export function begin(c: Context<OffersEnv>, params: { id: string }): ServiceContext {
  const call = c.get("call");
  return {
    tenantId: params.id,
    caller: call.caller as Caller,
    principal: principalForChannel(call.channel),
    requestId: call.requestId ?? c.get("requestId"),
    trace: call.trace,
    logger: call.logger,
    deps: call.deps,
  };
}

/**
 * The optional `Idempotency-Key` header of a route that declares it honours the key (the registry's
 * `idempotencyKey`, which the OpenAPI document shows; a route that does not cannot read it): the
 * contract's format, else 400 VALIDATION_FAILED naming the header.
 */
export function idempotencyKeyOf(
  c: Context<OffersEnv>,
  _route: { idempotencyKey: { withoutKey: string } },
): string | undefined {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return undefined;
  if (!IdempotencyKey.safeParse(key).success) {
    throw new HttpProblem("VALIDATION_FAILED", "the Idempotency-Key header is invalid", {
      errors: [
        { path: "headers.idempotency-key", code: "invalid_format", message: "1 to 255 visible ASCII characters" },
      ],
    });
  }
  return key;
}

/** 202 with the change-set handle and its `Location`. */
export const accepted = (handle: ChangeHandle) => ({
  status: 202 as const,
  body: handle,
  headers: { location: handle.location },
});
