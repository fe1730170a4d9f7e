import type { ChangeHandle } from "@flowstate/contracts/rest/offers/offers";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { notFound } from "@flowstate/shared/errors/domain-error";
import { HttpProblem } from "@flowstate/shared/http/http-problem";
import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import type { OffersEnv } from "./env.ts";
import { requireAccess } from "./offers-context.ts";

/**
 * The common start of every handler, after mountRoute validated the path: the registry's access
 * rule re-checked (requireAccess), and the tenant of the path matched with the one the gateway
 * signed (a mismatch is a missing tenant, never a hint).
 */
export function begin(c: Context<OffersEnv>, route: RouteSpec, params: { id: string }): ServiceContext {
  const ctx = c.get("ctx");
  requireAccess(ctx, route);
  if (params.id !== ctx.tenantId) throw notFound("tenant");
  return ctx;
}

/**
 * The optional `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header): 1 to 255
 * visible ASCII characters, else 400 VALIDATION_FAILED naming the header.
 */
export function idempotencyKeyOf(c: Context<OffersEnv>): string | undefined {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
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
