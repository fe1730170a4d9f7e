"""The probes' verdicts, where the stack listens, HTTP from a loopback address of one's own, the runner."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import time
import urllib.parse
from dataclasses import dataclass, field


# Verdicts


class ProbeFailed(AssertionError):
    """The system did what the finding says it must not."""


class ProbeSkipped(Exception):
    """The probe cannot be run from outside (or here); the message says why."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise ProbeFailed(message)




# Where the stack listens


@dataclass
class Stack:
    edge: str
    mcp: str
    sandbox: str
    aws: str
    identity: str | None = None
    pids: dict[str, int] = field(default_factory=dict)
    summary: str = ""

    @property
    def mcp_endpoint(self) -> str:
        return f"{self.mcp}/mcp"


SERVICE_LINE = re.compile(r"^\s{4}([a-z-]+)\s+(http://\S+)\s+(healthy|FAILED)\s*$", re.M)


def parse_summary(text: str) -> dict[str, str]:
    """The service URLs and the AWS endpoint from what `npm start` prints."""
    urls = {m.group(1): m.group(2) for m in SERVICE_LINE.finditer(text)}
    aws = re.search(r"AWS endpoint\s+(http://\S+)", text)
    if aws:
        urls["aws"] = aws.group(1)
    mcp = re.search(r"^\s+MCP\s+(http://\S+)/mcp\b", text, re.M)
    if mcp:
        urls.setdefault("mcp-gateway", mcp.group(1))
    edge = re.search(r"API \(edge-gateway\)\s+(http://\S+)", text)
    if edge:
        urls.setdefault("edge-gateway", edge.group(1))
    return urls


def load_stack(argv: list[str]) -> Stack:
    """From `--summary FILE` (npm start's output), `--stack-file FILE` (FLOWSTATE_STACK_FILE's JSON)
    or the environment (FLOWSTATE_EDGE_URL, FLOWSTATE_MCP_URL, FLOWSTATE_SANDBOX_URL, AWS_ENDPOINT_URL,
    FLOWSTATE_IDENTITY_URL, FLOWSTATE_IDENTITY_PID)."""
    urls: dict[str, str] = {}
    pids: dict[str, int] = {}
    summary = ""
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--summary":
            summary = open(args.pop(0), encoding="utf8").read()
            urls.update(parse_summary(summary))
        elif flag == "--stack-file":
            info = json.load(open(args.pop(0), encoding="utf8"))
            urls["aws"] = info.get("awsEndpoint", "")
            for name, s in info["services"].items():
                urls[name] = s["url"]
                if s.get("pid"):
                    pids[name] = int(s["pid"])
    env = os.environ
    for key, name in [
        ("FLOWSTATE_EDGE_URL", "edge-gateway"),
        ("FLOWSTATE_MCP_URL", "mcp-gateway"),
        ("FLOWSTATE_SANDBOX_URL", "seller-sandbox"),
        ("FLOWSTATE_IDENTITY_URL", "identity-svc"),
        ("AWS_ENDPOINT_URL", "aws"),
    ]:
        if env.get(key):
            urls[name] = env[key].rstrip("/")
    if env.get("FLOWSTATE_IDENTITY_PID"):
        pids["identity-svc"] = int(env["FLOWSTATE_IDENTITY_PID"])
    missing = [n for n in ("edge-gateway", "mcp-gateway", "seller-sandbox", "aws") if not urls.get(n)]
    if missing:
        raise SystemExit(
            f"missing URLs: {', '.join(missing)}; pass --summary <npm start output> or --stack-file <json>"
        )
    mcp = urls["mcp-gateway"]
    return Stack(
        edge=urls["edge-gateway"],
        mcp=mcp[:-4] if mcp.endswith("/mcp") else mcp,
        sandbox=urls["seller-sandbox"],
        aws=urls["aws"],
        identity=urls.get("identity-svc"),
        pids=pids,
        summary=summary,
    )




# HTTP


def fresh_address() -> str:
    """A loopback address nobody else uses in this run (see the module's comment)."""
    return f"127.{random.randint(1, 254)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str
    elapsed: float

    def json(self):
        try:
            return json.loads(self.text)
        except ValueError:
            return None

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")

    def brief(self) -> str:
        return f"{self.status} {self.text[:400]}"


class Http:
    """One client machine: every request leaves from `source` (a loopback address)."""

    def __init__(self, source: str | None = None):
        self.source = source or fresh_address()

    def request(
        self,
        method: str,
        url: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> Answer:
        u = urllib.parse.urlsplit(url)
        conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout, source_address=(self.source, 0))
        target = u.path or "/"
        if u.query:
            target += "?" + u.query
        data = body.encode() if isinstance(body, str) else body
        started = time.monotonic()
        try:
            conn.request(method, target, body=data, headers=headers or {})
            res = conn.getresponse()
            raw = res.read()
            hdrs: dict[str, str] = {}
            for k, v in res.getheaders():
                k = k.lower()
                hdrs[k] = f"{hdrs[k]}, {v}" if k in hdrs else v
            return Answer(res.status, hdrs, raw.decode("utf8", "replace"), time.monotonic() - started)
        finally:
            conn.close()

    def json(self, method: str, url: str, body=None, token: str | None = None, headers=None, timeout=60) -> Answer:
        h = {"accept": "application/json"}
        if body is not None:
            h["content-type"] = "application/json"
        if token:
            h["authorization"] = f"Bearer {token}"
        h.update(headers or {})
        return self.request(method, url, None if body is None else json.dumps(body), h, timeout)

    def form(self, url: str, fields: dict[str, str], headers=None) -> Answer:
        h = {"content-type": "application/x-www-form-urlencoded"}
        h.update(headers or {})
        return self.request("POST", url, urllib.parse.urlencode(fields), h)




# Running


def run_probes(probes, argv: list[str]) -> int:
    """Runs `probes` ([(name, fn(stack))]) and prints one PASS/FAIL/SKIP line each; 1 on any FAIL."""
    stack = load_stack(argv)
    failed = False
    for name, fn in probes:
        started = time.monotonic()
        try:
            fn(stack)
            line = f"PASS {name}"
        except ProbeSkipped as e:
            line = f"SKIP {name}: {e}"
        except ProbeFailed as e:
            failed = True
            line = f"FAIL {name}: {e}"
        except Exception as e:  # a probe that could not even ask its question is a failure too
            failed = True
            line = f"FAIL {name}: {type(e).__name__}: {e}"
        print(f"{line}  ({time.monotonic() - started:.1f} s)", flush=True)
    return 1 if failed else 0


def pid_listening_on(port: int) -> int | None:
    """The pid of the process listening on 127.0.0.1:`port` (Linux /proc; this user's processes only)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table, encoding="ascii").read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] == "0A" and int(parts[1].split(":")[1], 16) == port:
                inodes.add(parts[9])
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return int(pid)
        except OSError:
            continue
    return None
