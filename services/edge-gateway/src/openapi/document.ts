import { type ProblemCode, problemCodes, statusOf } from "@flowstate/contracts/errors/codes";
import { PROBLEM_CONTENT_TYPE, Problem } from "@flowstate/contracts/errors/problem";
import { IDEMPOTENCY_KEY_MEANING, IdempotencyKey } from "@flowstate/contracts/rest/idempotency";
import { OAuthError } from "@flowstate/contracts/rest/identity/oauth";
import { routeProblems } from "@flowstate/contracts/rest/problems";
import type { RouteSpec } from "@flowstate/contracts/rest/route";
import { z } from "zod";

type Json = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's own dialect) of a zod schema, without the `$schema` line. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return rest;
}

const problemRef = { $ref: "#/components/schemas/Problem" };
const oauthErrorRef = { $ref: "#/components/schemas/OAuthError" };

/**
 * The route's problem answers, one per status, each naming its codes (with their meaning) from
 * the catalog: those the route's shape implies and those it declares (`routeProblems`).
 */
function problems(route: RouteSpec): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of routeProblems(route)) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: codes.map((c) => `${c}: ${problemCodes[c].meaning}`).join("\n\n"),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: problemRef } },
      "x-flowstate-problem-codes": codes,
    };
  }
  return out;
}

function parameters(route: RouteSpec): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ["path", route.params],
    ["query", route.query],
  ] as const) {
    if (!(schema instanceof z.ZodObject)) continue;
    const json = schemaOf(schema, "input") as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return out;
}

/** The `Idempotency-Key` header of a route that honours it, and what a retry without it does. */
function idempotencyHeader(route: RouteSpec): Json[] {
  if (!route.idempotencyKey) return [];
  return [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: `${IDEMPOTENCY_KEY_MEANING} ${route.idempotencyKey.withoutKey}`,
      schema: schemaOf(IdempotencyKey, "input"),
    },
  ];
}

function security(route: RouteSpec): Json[] {
  if (route.auth === "public") return [];
  return route.apiKey ? [{ bearerAuth: [] }, { apiKey: [] }] : [{ bearerAuth: [] }];
}

/** A route's own answers: JSON bodies, server-rendered pages (`media.response: "html"`) or redirects. */
function ownResponses(route: RouteSpec): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code >= 300 && code < 400) responses[status] = { description: "Redirect (see Location)" };
    else if (route.media?.response === "html")
      responses[status] = { description: "A page", content: { "text/html": {} } };
    else if (schema === null) responses[status] = { description: "No content" };
    else
      responses[status] = {
        description: "Success",
        content: { "application/json": { schema: schemaOf(schema, "output") } },
      };
  }
  return responses;
}

/** OAuth protocol endpoints answer RFC 6749 error objects (with the problem members beside them). */
function oauthErrors(route: RouteSpec): Record<string, unknown> {
  // Same codes per status as any route; the protocol's own refusals (400, 401) are RFC 6749 objects
  // with the problem members beside them, while the gateway's (413, 429, 503) stay problems.
  const out = problems(route) as Record<string, { content: unknown }>;
  for (const status of ["400", "401"]) {
    if (out[status])
      out[status] = {
        ...out[status],
        content: { "application/json": { schema: { allOf: [oauthErrorRef, problemRef] } } },
      };
  }
  return out;
}

function operation(route: RouteSpec): Json {
  const responses = ownResponses(route);
  const op: Json = {
    operationId: route.id,
    summary: route.summary,
    tags: [route.id.split(".")[0]],
    security: security(route),
    parameters: [...parameters(route), ...idempotencyHeader(route)],
    responses: { ...responses, ...(route.errors === "oauth" ? oauthErrors(route) : problems(route)) },
  };
  if (route.body) {
    const media = route.media?.body === "form" ? "application/x-www-form-urlencoded" : "application/json";
    // A body schema that accepts `undefined` is an optional body (DELETE /v1/users/me's password).
    const required = !route.body.safeParse(undefined).success;
    const body = route.body instanceof z.ZodOptional ? (route.body.unwrap() as z.ZodType) : route.body;
    op.requestBody = { required, content: { [media]: { schema: schemaOf(body, "input") } } };
  }
  if (route.auth === "tenant") op["x-flowstate-min-role"] = route.minRole;
  if (route.apiKey) op["x-flowstate-api-key-scope"] = route.apiKey;
  if (route.feature) op["x-flowstate-feature"] = route.feature;
  return op;
}

/**
 * The OpenAPI 3.1 document of the public API, generated from the route registry's zod schemas,
 * the only definition of each shape, so the document cannot drift from what is validated.
 *
 * @example
 * const doc = openApiDocument(routes); // doc.paths["/v1/tenants/{id}"].get.operationId === "tenants.get"
 */
export function openApiDocument(routes: readonly RouteSpec[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Flowstate API",
      version: "1",
      description:
        "Every error is an RFC 9457 application/problem+json body with a stable `code` and the `request_id` to quote to support.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: { Problem: schemaOf(Problem, "output"), OAuthError: schemaOf(OAuthError, "output") },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "Access token from POST /v1/auth/signin (15 minutes).",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "Per-tenant API key (`fs_…`), sent as `Authorization: Bearer <key>`.",
        },
      },
    },
  };
}
