import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { mcpClientSetupLines } from "./mcp-client-config.ts";

/**
 * What `npm start` prints for MCP clients (issue 20: the configuration had no `"type": "http"`, so
 * Claude Code read it as a local stdio server). Parsed from the printed lines, as a person copies
 * them: every JSON snippet parses, every server entry that names a URL is `type: "http"` at the
 * MCP URL, VS Code's file uses `servers`, Claude Desktop's local entry is the mcp-remote bridge.
 */
const origin = "http://127.0.0.1:8086";
const url = `${origin}/mcp`;
const lines = mcpClientSetupLines(origin);
const printed = lines.join("\n");
const snippets = lines.filter((l) => l.trim().startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
type Entry = { type?: string; url?: string; command?: string; args?: string[]; headers?: Record<string, string> };
const entries = (doc: Record<string, unknown>) =>
  Object.values((doc.mcpServers ?? doc.servers) as Record<string, Entry>);

describe("the MCP client configuration npm start prints", () => {
  it("prints JSON snippets whose HTTP entries are type http at the MCP URL", () => {
    assert.equal(snippets.length, 4, printed);
    const http = snippets.flatMap(entries).filter((e) => e.url !== undefined);
    assert.equal(http.length, 3);
    for (const entry of http) {
      assert.equal(entry.type, "http", JSON.stringify(entry));
      assert.equal(entry.url, url);
    }
    assert.ok(
      http.some((e) => e.headers?.Authorization?.startsWith("Bearer ")),
      "an API key entry",
    );
  });

  it("gives VS Code its servers key, Claude Desktop the stdio bridge, Claude Code its command", () => {
    const vscode = snippets.find((s) => "servers" in s);
    assert.deepEqual(vscode, { servers: { flowstate: { type: "http", url } } });
    const desktop = snippets.flatMap(entries).find((e) => e.command !== undefined);
    assert.deepEqual(desktop, { command: "npx", args: ["mcp-remote", url] });
    assert.match(printed, /claude_desktop_config\.json/);
    assert.match(printed, /Settings → Connectors/);
    assert.ok(
      lines.some((l) => l.trim().endsWith(`claude mcp add --transport http flowstate ${url}`)),
      printed,
    );
  });

  it("matches the snippets the READMEs give: every JSON one parses, its HTTP entries type http", () => {
    for (const readme of ["../../README.md", "../../services/mcp-gateway/README.md"]) {
      const text = readFileSync(new URL(readme, import.meta.url), "utf8");
      const inReadme = [...text.matchAll(/`(\{"(?:mcpServers|servers)".*?\})`/g)].map((m) => JSON.parse(m[1]!));
      assert.ok(inReadme.length >= 3, `${readme}: ${inReadme.length} snippets`);
      const http = inReadme.flatMap(entries).filter((e) => e.url !== undefined);
      for (const entry of http) assert.deepEqual(entry, { type: "http", url }, readme);
      // Every snippet npm start prints is in the README, as JSON (spacing aside).
      for (const doc of snippets.filter((d) => !JSON.stringify(d).includes("API key"))) {
        assert.ok(
          inReadme.some((r) => JSON.stringify(r) === JSON.stringify(doc)),
          `${readme} lacks ${JSON.stringify(doc)}`,
        );
      }
      assert.match(text, new RegExp(`claude mcp add --transport http flowstate ${url.replaceAll(".", "\\.")}`));
    }
  });
});
