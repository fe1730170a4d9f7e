/**
 * The floor of each door (bench/70-mcp.bench.ts): the least a REST door and an MCP door can do for
 * the same call, one hop in front of the same upstream (argv[2], a bare Hono server), on Hono and
 * @hono/node-server as the real doors are. No authentication, pipeline, logging or audit: what is
 * left is the HTTP and MCP machinery alone.
 * - `GET /rest`: fetches the upstream and returns its JSON.
 * - `POST /mcp`: as mcp-gateway serves a call (src/app.ts, src/server.ts): a new McpServer and
 *   WebStandardStreamableHTTPServerTransport per request (stateless, JSON responses), one tool
 *   with a strict input schema and an output schema, whose handler fetches the upstream and
 *   returns its JSON as structuredContent and as text.
 * The difference between the two at one connection is what the MCP SDK's per-request server adds
 * to a call on this machine, whatever Flowstate does around it.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Hono } from "hono";
import { z } from "zod";
import { serveBench } from "../servers.ts";

const upstream = `${process.argv[2]}/healthz`;
const fetchUpstream = async () => (await (await fetch(upstream)).json()) as { status: string };

// Built once, as mcp-gateway builds them (src/server.ts): only the server is per request.
const registration = {
  description: "The upstream's status.",
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ status: z.string() }),
  annotations: { readOnlyHint: true },
};
const jsonSchemaValidator = new AjvJsonSchemaValidator();

const app = new Hono();
app.get("/rest", async (c) => c.json(await fetchUpstream()));
app.post("/mcp", async (c) => {
  const server = new McpServer({ name: "floor", version: "1.0.0" }, { jsonSchemaValidator });
  server.registerTool("get_status", registration, async () => {
    const status = await fetchUpstream();
    return { structuredContent: status, content: [{ type: "text", text: JSON.stringify(status) }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return transport.handleRequest(c.req.raw, { parsedBody: await c.req.json() });
});

serveBench(app);
