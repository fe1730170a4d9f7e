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
  /** The REST request for these arguments; `tenantId` is the credential's or the path's tenant. */
  request(args: z.output<z.ZodObject<S>>, tenantId: string | undefined): RestRequest;
}

export interface RestRequest {
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export const defineTool = <S extends z.ZodRawShape>(tool: ToolSpec<S>): ToolSpec<S> => tool;

/** `/v1/tenants/{id}…` of the call's tenant (always set for tenant tools; see server.ts). */
export const tenantPath = (tenantId: string | undefined, rest = "") => `/v1/tenants/${tenantId}${rest}`;
