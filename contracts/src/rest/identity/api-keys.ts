import { z } from "zod";
import { ApiKeyId, Sub } from "../../ids.ts";
import { ApiKeyName, Timestamp } from "./common.ts";

export const ApiKeyScope = z.enum(["read", "write"]);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

export const CreateApiKeyRequest = z.strictObject({ name: ApiKeyName, scope: ApiKeyScope });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** A key as listed: never the secret. `prefix` is the non-secret start of the key, to recognise it. */
export const ApiKey = z.object({
  key_id: ApiKeyId,
  name: z.string(),
  scope: ApiKeyScope,
  prefix: z.string(),
  created_by: Sub,
  created_at: Timestamp,
  revoked_at: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer to creation, the only time the secret is shown. Send it as `Authorization: Bearer <secret>`. */
export const CreatedApiKey = ApiKey.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyList = z.object({ api_keys: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;
