import type { CallerIdentity, Gateway } from "@flowstate/edge-gateway/pipeline";
import { zodIssues } from "@flowstate/shared/http/zod-issues";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { authorizeCall } from "./authorize-call.ts";
import { callRoute } from "./call-route.ts";
import type { Caller } from "./caller.ts";
import { publishedSchema } from "./published-schema.ts";
import { refusal, toolResult } from "./tool-result.ts";
import { confirmsDeletion, deleteMyAccount } from "./tools/delete-my-account.ts";
import { tools } from "./tools/index.ts";
import type { ToolSpec } from "./tools/tool.ts";

/** The tools a caller may see: person tools never for an API key (a key is not a person). */
export const visibleTools = (identity: CallerIdentity): readonly ToolSpec[] =>
  tools.filter((t) => !(t.person && identity.kind === "api_key"));

/**
 * The 2xx response schema of the tool's route as an output schema, which 2025-11-25 wants to be an
 * object: an object as is; a union of objects told apart by one field (connector status, seller
 * currencies) as one object whose every field is optional unless all variants have it (the
 * description names the variants); no body (204) as the empty object the tool returns.
 */
function outputShape(tool: ToolSpec): z.ZodRawShape | undefined {
  const ok = Object.entries(tool.route.responses).find(([status]) => Number(status) < 300)?.[1];
  if (ok === null) return {};
  if (ok instanceof z.ZodObject) return ok.shape;
  if (ok instanceof z.ZodDiscriminatedUnion && ok.options.every((o) => o instanceof z.ZodObject)) {
    const variants = ok.options as z.ZodObject[];
    const keys = [...new Set(variants.flatMap((v) => Object.keys(v.shape)))];
    return Object.fromEntries(
      keys.map((key) => {
        const schemas = [...new Set(variants.map((v) => v.shape[key]).filter((s) => s !== undefined))];
        const one = schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodType, z.ZodType]);
        return [key, variants.every((v) => key in v.shape) ? one : one.optional()];
      }),
    );
  }
  return undefined;
}

/** What the SDK validates arguments with: any object (server.ts validates them with the tool's schema). */
const ANY_ARGUMENTS = z.looseObject({});

/**
 * Each tool's registration, built once per process: a server is built per request, and building
 * the schemas again each time cost several milliseconds per call (bench/70-mcp.bench.ts). The tool
 * handler validates arguments with `inputSchema` strictly (unknown ones refused). The output schema
 * is published (`listings`) but not given to the SDK, which would parse every answer against it
 * again: the answer is the route's body, and the route's own schema, the one the output schema is
 * made of, already binds it (mount-route's checkResponses in every test; the official client,
 * which the e2e tests use, checks structuredContent against the listed schema too). Leaving it out
 * took ~100 µs of CPU per call off the door (bench/70-mcp.bench.ts, session 21).
 */
const registrations = new Map(
  tools.map((tool) => {
    const output = outputShape(tool);
    return [
      tool,
      {
        description: tool.description,
        inputSchema: z.strictObject(tool.input),
        ...(output ? { outputSchema: z.object(output) } : {}),
        annotations: tool.annotations,
        /**
         * What the SDK is given: a schema that takes any object, since the handler validates with
         * the tool's own (after authorizing the call), so a refusal is REST's VALIDATION_FAILED with
         * errors[] rather than the SDK's text (SEP-1303: input-validation failures are tool errors
         * the model reads); and no output schema (above).
         */
        sdk: { description: tool.description, inputSchema: ANY_ARGUMENTS, annotations: tool.annotations },
      },
    ] as const;
  }),
);

/**
 * What `tools/list` says of each tool, also built once: the same zod schemas as JSON Schema, made
 * small (published-schema.ts). The SDK's own listing writes every schema out in full on every
 * request (45 KB, twice a model's budget for a whole tool list, see the README); `execution` is
 * left out as its default (`taskSupport: "forbidden"`).
 */
const listings = new Map(
  [...registrations].map(([tool, r]): [ToolSpec, Tool] => [
    tool,
    {
      name: tool.name,
      description: r.description,
      inputSchema: publishedSchema(r.inputSchema, "input", tool.outlined) as Tool["inputSchema"],
      ...(r.outputSchema ? { outputSchema: publishedSchema(r.outputSchema, "output") as Tool["outputSchema"] } : {}),
      annotations: r.annotations,
    },
  ]),
);

/**
 * What every tool shares, said once here rather than in each description (clients give these
 * instructions to the model with the tool list; src/tool-list.test.ts holds both to a budget).
 */
export const INSTRUCTIONS =
  "Flowstate's marketplace tools act in this connection's tenant, on the seller AWS account connected to it, and need " +
  "the tenant's marketplace_offers feature. Reads need a member (the onboarding bundle an admin), changes the admin role " +
  "or a write API key. Start with get_marketplace_connector_status; if not connected, get_marketplace_onboarding then " +
  "connect_marketplace_connector. A seller role that does not trust Flowstate's mcp-execution principal refuses the " +
  "calls into AWS (CONNECTOR_ACCESS_DENIED; check_marketplace_connector_health names the fix). An offer change retried " +
  "with the same idempotency_key and arguments returns the first change set. The *_my_* tools act for the signed-in " +
  "person, never with an API key. An error's code and message say what to do.";

/**
 * The SDK's JSON Schema validator (it validates elicitation answers, which these stateless servers
 * never ask for), shared: left to the SDK, every server builds its own Ajv instance with its
 * formats, which cost more CPU than the rest of a tool call (bench/70-mcp.bench.ts).
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * A new McpServer for one HTTP request (stateless: nothing is shared between requests, so one
 * caller's JSON-RPC ids can never meet another's). Each tool handler maps its arguments to its
 * REST route and sends it through the pipeline with the caller's credential.
 *
 * `called`: the request is a single `tools/call` of this (visible) tool, so only it is registered:
 * the SDK answers that call from that tool alone, and registering every tool cost more than the
 * call's own MCP handling (bench/70-mcp.bench.ts). Anything else (a list, a batch, an unknown
 * tool) gets every visible tool, so the SDK answers it exactly as before.
 */
export function buildServer(caller: Caller, gateway: Pick<Gateway, "call">, called?: ToolSpec): McpServer {
  const server = new McpServer(
    { name: "flowstate", version: "1.0.0" },
    { instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  const visible = visibleTools(caller.identity);
  for (const tool of called ? [called] : visible) {
    const registration = registrations.get(tool)!;
    server.registerTool(tool.name, registration.sdk, async (args: Record<string, unknown>) => {
      const started = performance.now();
      // A call that throws (a timeout past 10 s) still gets its audit event, and a generic answer.
      const denied = authorizeCall(tool, caller);
      const input = denied ? undefined : registration.inputSchema.safeParse(args);
      const result =
        denied ??
        (!input?.success
          ? refusal("VALIDATION_FAILED", "the arguments are invalid; see errors", {
              errors: input ? zodIssues(input.error) : [],
            })
          : await runTool(tool, input.data, caller, gateway).catch(() =>
              refusal("INTERNAL_ERROR", `Flowstate could not complete this call (request ${caller.requestId}).`),
            ));
      caller.audit?.record({
        tool: tool.name,
        identity: caller.identity,
        tenantId: tool.person ? undefined : caller.tenantId,
        outcome: denied ? "denied" : result.isError ? "error" : "ok",
        code: result.isError ? errorCode(result) : undefined,
        durationMs: performance.now() - started,
        requestId: caller.requestId,
      });
      return result;
    });
  }
  // Replaces the listing registerTool installed (calls still go to the SDK's handler, then to the
  // handler above, which validates with the zod schemas of `registrations`). A single tools/call
  // (`called`) lists nothing.
  if (!called) {
    const listed = { tools: visible.map((tool) => listings.get(tool)!) };
    server.server.setRequestHandler(ListToolsRequestSchema, () => listed);
  }
  // registerTool advertises `tools.listChanged: true`; a stateless server never sends
  // notifications/tools/list_changed (no stream outlives a request), so it says so.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/** The stable code of an error result (tool-result.ts writes it first in the text). */
const errorCode = (result: CallToolResult) => {
  const first = result.content[0];
  try {
    return first?.type === "text" ? (JSON.parse(first.text) as { code?: string }).code : undefined;
  } catch {
    return undefined;
  }
};

/** One authorized tool call (authorize-call.ts): the confirmation first, then the tool's REST route through the pipeline. */
async function runTool(
  tool: ToolSpec,
  args: Record<string, unknown>,
  caller: Caller,
  gateway: Pick<Gateway, "call">,
): Promise<CallToolResult> {
  if (tool === (deleteMyAccount as unknown as ToolSpec) && !confirmsDeletion(String(args.confirm))) {
    return refusal(
      "CONFIRMATION_REQUIRED",
      'Nothing was deleted. To delete your account, call delete_my_account again with confirm: "delete".',
    );
  }
  const answer = await callRoute(gateway, tool, tool.request(args as never, caller.tenantId), caller);
  const result = toolResult(answer, caller.principalPrefix);
  // The credential was refused (revoked, expired, the account gone) between the door's check and
  // the route: an MCP client goes back to authorization only on an HTTP 401, never on a result.
  // REAUTHENTICATION_REQUIRED stays a result: the credential is valid, and a refresh keeps the
  // old sign-in time, so a 401 would only send the client round a refresh and back.
  const code = errorCode(result);
  if (answer.status === 401 && code !== "REAUTHENTICATION_REQUIRED") {
    caller.challenge = { status: 401, description: `the credential was refused (${code ?? "UNAUTHENTICATED"})` };
  }
  return result;
}

export type { Caller } from "./caller.ts";
