import { z } from "zod";

/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): 1 to 255
 * visible ASCII characters, chosen by the client, one per intended change. A route that honours
 * it says so in the registry (`RouteSpec.idempotencyKey`); the OpenAPI document and the handlers
 * read it from there.
 */
export const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, "1 to 255 visible ASCII characters");
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;

/** What the header does on every route that honours it (the OpenAPI parameter's description). */
export const IDEMPOTENCY_KEY_MEANING =
  "Optional; one key per intended change, kept per tenant. A retry with the same key and the same request " +
  "answers what the first one did (the same change set, also when the duplicates arrive at once) and changes " +
  "nothing more; the same key with another request is refused with 422 IDEMPOTENCY_KEY_REUSED.";
