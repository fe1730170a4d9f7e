"""MCP over Streamable HTTP (stateless: each POST stands alone)."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass

from kit_core import Answer, Http, Stack


# MCP over Streamable HTTP (stateless: each POST stands alone)

TOOL_SCOPES = {
    "check_marketplace_connector_health": "marketplace:read",
    "clone_private_offer": "marketplace:write",
    "connect_marketplace_connector": "marketplace:write",
    "create_private_offer": "marketplace:write",
    "delete_my_account": "account",
    "disconnect_marketplace_connector": "marketplace:write",
    "expire_private_offer": "marketplace:write",
    "export_my_data": "account",
    "get_marketplace_connector_status": "marketplace:read",
    "get_marketplace_onboarding": "marketplace:read",
    "get_my_export_status": "account",
    "get_offer_change_status": "marketplace:read",
    "get_private_offer": "marketplace:read",
    "get_seller_currencies": "marketplace:read",
    "list_marketplace_products": "marketplace:read",
    "list_private_offers": "marketplace:read",
    "list_purchase_agreements": "marketplace:read",
    "release_private_offer": "marketplace:write",
}
ALL_SCOPES = "marketplace:read marketplace:write account"


def rpc_call(name: str, arguments: dict | None = None, id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments or {}}}


@dataclass
class McpAnswer:
    http: Answer
    messages: list  # the JSON-RPC responses in the body (a JSON body, or SSE `data:` events)

    @property
    def status(self) -> int:
        return self.http.status

    def served(self) -> list:
        """The tools/call results that did the work (a `result` that is no `isError`)."""
        return [m for m in self.messages if isinstance(m, dict) and "result" in m and not m["result"].get("isError")]

    def tool_error(self) -> dict | None:
        """The JSON of the first isError result (code, message, extensions)."""
        for m in self.messages:
            if isinstance(m, dict) and m.get("result", {}).get("isError"):
                try:
                    return json.loads(m["result"]["content"][0]["text"])
                except (KeyError, IndexError, ValueError):
                    return {"raw": m["result"]}
        return None

    def structured(self) -> dict | None:
        ok = self.served()
        return ok[0]["result"].get("structuredContent") if ok else None

    def brief(self) -> str:
        return self.http.brief()


class Mcp:
    def __init__(self, stack: Stack, http: Http | None = None):
        self.stack = stack
        self.http = http or Http()

    def post(self, token: str | None, body, path: str = "/mcp", headers=None, timeout=60) -> McpAnswer:
        h = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
        if token:
            h["authorization"] = f"Bearer {token}"
        h.update(headers or {})
        res = self.http.request("POST", f"{self.stack.mcp}{path}", json.dumps(body), h, timeout)
        return McpAnswer(res, parse_messages(res))

    def tool(self, token: str | None, name: str, arguments: dict | None = None, path: str = "/mcp", timeout=60) -> McpAnswer:
        return self.post(token, rpc_call(name, arguments), path, timeout=timeout)

    def batch(self, token: str | None, calls: list[dict], path: str = "/mcp") -> McpAnswer:
        return self.post(token, calls, path)


def parse_messages(res: Answer) -> list:
    ctype = res.header("content-type")
    if "text/event-stream" in ctype:
        out = []
        for line in res.text.splitlines():
            if line.startswith("data:"):
                try:
                    out.append(json.loads(line[5:].strip()))
                except ValueError:
                    pass
        return out
    body = res.json()
    if body is None:
        return []
    return body if isinstance(body, list) else [body]


def refused_with_challenge(answer: McpAnswer) -> str | None:
    """None when the answer is the 401 that sends a client back to authorization; else what it was."""
    if answer.status != 401:
        err = answer.tool_error()
        return f"HTTP {answer.status}" + (f" with an isError result {err.get('code')}" if err else "") + f": {answer.http.text[:300]}"
    challenge = answer.http.header("www-authenticate")
    if not challenge.lower().startswith("bearer"):
        return f"401 without a Bearer WWW-Authenticate challenge ({challenge!r})"
    return None
