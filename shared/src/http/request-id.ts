import { randomBytes } from "node:crypto";

/** Incoming ids we adopt (the gateway's, a load balancer's): short, no spaces, no quotes, no control characters. */
const SAFE = /^[A-Za-z0-9._:-]{8,128}$/;

// Ids come from a pooled random buffer: one crypto call per 4096 ids keeps the hot path cheap.
const POOL_IDS = 4096;
const ID_BYTES = 12;
let pool = Buffer.alloc(0);
let offset = 0;

/** A fresh `req_` + 16 base64url characters (96 random bits). */
export function newRequestId(): string {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_IDS * ID_BYTES);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

/**
 * The request id of this request: the incoming `x-request-id` when it is safe to echo and log,
 * otherwise a new one. Adopting the caller's id lets one id follow a request through the gateway
 * and the services.
 */
export const requestIdFrom = (incoming: string | null | undefined) =>
  incoming && SAFE.test(incoming) ? incoming : newRequestId();
