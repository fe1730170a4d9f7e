import { isDeepStrictEqual } from "node:util";
import type { ProblemCode } from "@flowstate/contracts/errors/codes";
import { routeProblems } from "@flowstate/contracts/rest/problems";
import type { RouteShape } from "@flowstate/contracts/rest/route";
import { zValidator } from "@hono/zod-validator";
import type { Context, Env, Hono, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { DomainError } from "../errors/domain-error.ts";
import { routeAccess } from "../seam/route-access.ts";
import { hasBody } from "./has-body.ts";
import { HttpProblem } from "./http-problem.ts";
import { jsonBody } from "./json-body.ts";
import { honoPath, routeBook } from "./route-book.ts";
import { zodIssues } from "./zod-issues.ts";

/**
 * `headers` of an answer that must never be stored by a cache: tokens, secrets shown once, signed
 * URLs (RFC 9111 section 5.2.2.5; RFC 6749 section 5.1 for token answers).
 */
export const NO_STORE: Readonly<Record<string, string>> = Object.freeze({ "cache-control": "no-store" });

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: params, query and body, already validated against the route's schemas. */
export interface RouteInput<R extends RouteShape> {
  params: Parsed<R["params"]>;
  query: Parsed<R["query"]>;
  body: Parsed<R["body"]>;
}

/** One of the answers the route declares: its status with a body of that status's schema (none for null). */
export type RouteReply<R extends RouteShape> =
  | {
      [S in keyof R["responses"] & number]: R["responses"][S] extends z.ZodType
        ? { status: S; body: z.input<R["responses"][S]>; headers?: Record<string, string> }
        : { status: S; body?: null; headers?: Record<string, string> };
    }[keyof R["responses"] & number]
  | (R["streams"] extends string
      ? { status: 200; stream: ReadableStream<Uint8Array>; headers?: Record<string, string> }
      : never);

export type RouteHandler<E extends Env, R extends RouteShape> = (
  input: RouteInput<R>,
  c: Context<E>,
) => RouteReply<R> | Promise<RouteReply<R>>;

type Where = "path" | "query string" | "request body";

/** zValidator's hook: today's 400 VALIDATION_FAILED with `errors[]`, instead of its own JSON. */
const refuse =
  (where: Where) =>
  (result: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }): void => {
    if (!result.success) {
      throw new HttpProblem("VALIDATION_FAILED", `the ${where} is invalid`, {
        errors: zodIssues(result.error!),
      });
    }
  };

// The schemas parse synchronously (no async refinements in contracts); zod's async parse costs more.
const sync = { validationFunction: (schema: z.ZodType, value: unknown) => schema.safeParse(value) };

/**
 * Mounts `handler` for one registry entry (`contracts/src/rest/routes.ts`, or the internal ones):
 * on an app built on the seam, the access the entry declares is applied first (who may call it:
 * shared/src/seam/route-access.ts); the path comes from the spec (`{id}` → `:id`), params, query and body are validated with
 * @hono/zod-validator in that order before the handler runs (400 VALIDATION_FAILED with
 * `errors[]`; 415 UNSUPPORTED_MEDIA_TYPE and 400 MALFORMED_JSON for bodies, see json-body.ts),
 * and the handler's input and answer are typed from the spec's schemas. Problems are thrown
 * (DomainError, HttpProblem), never returned.
 *
 * When the app was built with `checkResponses` (tests), every answer is checked against the
 * route's response schema for its status, extra members included, and every problem the handler
 * throws against the codes the route declares (`routeProblems`); a mismatch becomes a 500 with
 * the reason in the log, so the test that made the call fails. Production does not check: the
 * handler's answer is typed from the same schema, and by then the change has committed, so a 500
 * would tell the client a successful write failed (see docs/adr/0004-routes-mounted-from-the-registry.md).
 *
 * @example
 * mountRoute(app, routeIn(identityRoutes, "tenants.get"), async ({ params }, c) => ({
 *   status: 200,
 *   body: await getTenant({ ctx: c.get("ctx"), tenantId: params.id }),
 * }));
 */
export function mountRoute<E extends Env, R extends RouteShape>(
  app: Hono<E>,
  spec: R,
  handler: NoInfer<RouteHandler<E, R>>,
): void {
  const book = routeBook(app);
  const validators: MiddlewareHandler[] = [];
  // On the seam, the route's declared access comes first: a caller it refuses learns nothing of the input rules.
  const access = book.access ? routeAccess(spec, book.access) : undefined;
  if (access) validators.push(access as MiddlewareHandler);
  if (spec.params) validators.push(zValidator("param", spec.params, refuse("path"), sync));
  if (spec.query) validators.push(zValidator("query", spec.query, refuse("query string"), sync));
  if (spec.body) {
    const json = [jsonBody, zValidator("json", spec.body, refuse("request body"), sync)] as MiddlewareHandler[];
    // A body schema that accepts `undefined` makes the body optional: a request without one (no
    // bytes, no Content-Type) skips both and the handler gets `body: undefined`; any other is checked.
    if (spec.body.safeParse(undefined).success) validators.push(...json.map(whenBodyPresent));
    else validators.push(...json);
  }
  const check = book.checkResponses;
  const declared = new Set(routeProblems(spec));

  const run = async (c: Context<E>): Promise<Response> => {
    const valid = c.req as unknown as { valid(target: string): unknown };
    const input = {
      params: spec.params ? valid.valid("param") : undefined,
      query: spec.query ? valid.valid("query") : undefined,
      body: spec.body ? valid.valid("json") : undefined,
    } as RouteInput<R>;
    let reply: {
      status: number;
      body?: unknown;
      stream?: ReadableStream<Uint8Array>;
      headers?: Record<string, string>;
    };
    try {
      reply = await handler(input, c);
    } catch (err) {
      if (check) checkProblem(spec, err, declared);
      throw err;
    }
    if (reply.stream && spec.streams) {
      // A streamed answer is not checked here: its lines are validated by the caller as they arrive.
      return new Response(reply.stream, { status: 200, headers: { ...reply.headers, "content-type": spec.streams } });
    }
    if (check) checkReply(spec, reply);
    if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) c.header(name, value);
    if (reply.body === undefined || reply.body === null) return c.body(null, reply.status as StatusCode);
    return c.json(reply.body, reply.status as ContentfulStatusCode);
  };
  const handlers = [...validators, run] as MiddlewareHandler<E>[];
  app.on(spec.method, [honoPath(spec.path)], ...handlers);
  book.mounted.push(spec);
}

/**
 * Runs `middleware` unless the request has no body at all: no bytes and no Content-Type. A client
 * that declares a media type has sent a body, so an empty one is MALFORMED_JSON as anywhere else
 * (and a probe cannot turn a body it meant into "no body").
 */
const whenBodyPresent =
  (middleware: MiddlewareHandler): MiddlewareHandler =>
  (c, next) =>
    hasBody(c) || c.req.header("content-type") !== undefined ? middleware(c, next) : next();

/** Throws when the handler failed with a problem code its route does not declare (`problems` in the registry). */
function checkProblem(spec: RouteShape, err: unknown, declared: ReadonlySet<ProblemCode>): void {
  const code = err instanceof DomainError || err instanceof HttpProblem ? err.code : undefined;
  if (code !== undefined && !declared.has(code)) {
    throw new Error(`${spec.id} answered ${code}, which its registry entry does not declare (problems)`, {
      cause: err,
    });
  }
}

/** Throws when `reply` is not an answer `spec` declares, or its body is not exactly of that answer's schema. */
export function checkReply(spec: RouteShape, reply: { status: number; body?: unknown }): void {
  const fail = (why: string) => {
    throw new Error(`response of ${spec.id} (${spec.method} ${spec.path}) is off its contract: ${why}`);
  };
  if (!(reply.status in spec.responses)) fail(`status ${reply.status} is not declared`);
  const schema = spec.responses[reply.status];
  const body = reply.body ?? null;
  if (!schema) {
    if (body !== null) fail(`status ${reply.status} declares no body`);
    return;
  }
  const sent = JSON.parse(JSON.stringify(body)) as unknown;
  const result = schema.safeParse(sent);
  if (!result.success) {
    fail(
      zodIssues(result.error)
        .map((i) => `${i.path || "(body)"}: ${i.code}`)
        .join("; "),
    );
  }
  // zod strips members it does not know; a member the schema lacks (a leaked column) is off contract too.
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(result.data)), sent)) fail("members the schema does not declare");
}
