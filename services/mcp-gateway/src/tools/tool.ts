import { IdempotencyKey } from "@flowstate/contracts/rest/idempotency";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** The OAuth scopes tools need (identity-svc issues them at consent). */
export type Scope = "marketplace:read" | "marketplace:write" | "account";

/**
 * One MCP tool, declared as a view of ONE registry route: the tool's arguments become that
 * route's path, query and body, and the call goes through the same pipeline as REST (pipeline.ts),
 * so the answer and every refusal are REST's. `person` tools act for the signed-in person and
 * never accept an API key; the others act in the tenant of the credential or of the path.
 */
export interface ToolSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  /** What it does, what it needs, what it returns: the model reads this. */
  description: string;
  route: RouteSpec;
  scope: Scope;
  person: boolean;
  /** Strict input: unknown arguments are refused. */
  input: S;
  annotations: ToolAnnotations;
  /**
   * Arguments that `tools/list` publishes as their JSON type and this pointer only, because
   * another tool's schema spells out the same shape (clone's overrides: create_private_offer's
   * fields). The server still validates them in full with `input`.
   */
  outlined?: Partial<Record<keyof S & string, string>>;
  /** The REST request for these arguments; `tenantId` is the credential's or the path's tenant. */
  request(args: z.output<z.ZodObject<S>>, tenantId: string | undefined): RestRequest;
}

export interface RestRequest {
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Request headers the route reads besides the credential (offer changes: `Idempotency-Key`). */
  headers?: Record<string, string | undefined>;
}

export const defineTool = <S extends z.ZodRawShape>(tool: ToolSpec<S>): ToolSpec<S> => tool;

/** `/v1/tenants/{id}…` of the call's tenant (always set for tenant tools; see server.ts). */
export const tenantPath = (tenantId: string | undefined, rest = "") => `/v1/tenants/${tenantId}${rest}`;

/**
 * The optional `idempotency_key` of the offer-changing tools, sent as the route's `Idempotency-Key`
 * header (the contract's format: 1 to 255 visible ASCII characters). A model that retries a call whose answer
 * it lost gets the same change set back instead of a second offer. No description in the schema:
 * the name says it, and the server's instructions say it once for the four tools (server.ts).
 */
export const idempotencyKey = IdempotencyKey.optional();

/** `Idempotency-Key` when the caller gave one. */
export const idempotencyHeader = (key: string | undefined) => (key === undefined ? {} : { "idempotency-key": key });
