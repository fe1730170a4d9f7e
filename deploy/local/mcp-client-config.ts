/**
 * How MCP clients reach this deployment's mcp-gateway, as `npm start` prints it (scripts/start.ts)
 * and the READMEs give it. Streamable HTTP needs `"type": "http"` in the clients' JSON: without it
 * Claude Code reads an entry as a local stdio server. Each client's own format:
 *
 * - Claude Code: `claude mcp add --transport http <name> <url>`, or `.mcp.json` with `mcpServers`.
 * - VS Code: `.vscode/mcp.json` with `servers` (not `mcpServers`).
 * - Claude Desktop: remote servers only through Settings → Connectors, which Anthropic's cloud
 *   connects to (a public HTTPS URL; it ignores remote entries in claude_desktop_config.json); a
 *   server on this machine goes through a local stdio bridge, `npx mcp-remote <url>`.
 *
 * The OAuth sign-in happens in each client (it discovers the authorization server from the URL);
 * headless automation sends a tenant API key as a bearer header instead.
 */
export interface McpClientSnippet {
  /** The client, as the summary names it. */
  client: string;
  /** Where it goes, for a JSON snippet (a file or a settings page). */
  where?: string;
  /** A shell command, or a JSON document. */
  command?: string;
  json?: unknown;
}

const API_KEY = "Bearer <API key from POST /v1/tenants/{id}/api-keys>";

/** The snippets for the MCP endpoint `mcpUrl` (`<origin>/mcp`). */
export function mcpClientSnippets(mcpUrl: string): McpClientSnippet[] {
  return [
    { client: "Claude Code", command: `claude mcp add --transport http flowstate ${mcpUrl}` },
    { client: "Claude Code", where: ".mcp.json", json: { mcpServers: { flowstate: { type: "http", url: mcpUrl } } } },
    { client: "VS Code", where: ".vscode/mcp.json", json: { servers: { flowstate: { type: "http", url: mcpUrl } } } },
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json (local stdio bridge; a public HTTPS URL goes in Settings → Connectors)",
      json: { mcpServers: { flowstate: { command: "npx", args: ["mcp-remote", mcpUrl] } } },
    },
    {
      client: "API key",
      where: "any client's entry, headless",
      json: { mcpServers: { flowstate: { type: "http", url: mcpUrl, headers: { Authorization: API_KEY } } } },
    },
  ];
}

/** The summary lines `npm start` prints for `origin` (mcp-gateway's URL). */
export function mcpClientSetupLines(origin: string): string[] {
  const url = `${origin}/mcp`;
  return [
    `  MCP                 ${url}  (a tenant: ${url}/tenants/<tenant id>)`,
    "  MCP clients         (OAuth sign-in happens in the client; headless: a tenant API key header)",
    ...mcpClientSnippets(url).flatMap((s) =>
      s.command
        ? [`    ${s.client.padEnd(16)}${s.command}`]
        : [`    ${s.client.padEnd(16)}${s.where}:`, `      ${JSON.stringify(s.json)}`],
    ),
  ];
}
