"""Black-box probe kit for issue 20: HTTP only, Python 3 standard library only.

Everything here talks to the URLs `npm start` prints, as an outsider would: the edge gateway's REST
API and its OAuth authorization server (sign-in and consent pages posted as a browser posts them),
mcp-gateway's Streamable HTTP endpoint, the seller sandbox's control plane, and the local AWS
emulator's IAM, where a seller creates their own role (in AWS, the seller's own account).

Each probe runs from its own loopback source address (127.x.y.z, all of which reach 127.0.0.1 on
Linux): the doors count rate limits and client registrations per address, and a fresh address per
run keeps one run's counts from deciding the next run's verdict, as two attackers' machines would.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import secrets
import time
import urllib.parse
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------
# Verdicts


class ProbeFailed(AssertionError):
    """The system did what the finding says it must not."""


class ProbeSkipped(Exception):
    """The probe cannot be run from outside (or here); the message says why."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise ProbeFailed(message)


# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# REST: people and tenants

PASSWORD = "correct horse battery staple"


@dataclass
class Person:
    email: str
    password: str
    sub: str
    access_token: str
    refresh_token: str
    device_token: str


class Rest:
    def __init__(self, stack: Stack, http: Http | None = None):
        self.stack = stack
        self.http = http or Http()

    def url(self, path: str) -> str:
        return f"{self.stack.edge}{path}"

    def call(self, method: str, path: str, token: str | None = None, body=None, headers=None) -> Answer:
        return self.http.json(method, self.url(path), body, token, headers)

    def sign_up(self, label: str = "probe") -> Person:
        email = f"{label}-{secrets.token_hex(6)}@probe.example.com"
        res = self.call("POST", "/v1/auth/signup", body={"email": email, "password": PASSWORD, "name": "Probe Person"})
        check(res.status == 201, f"sign-up: {res.brief()}")
        sub = res.json()["sub"]
        tokens = self.sign_in(email, PASSWORD)
        check(tokens.status == 200, f"sign-in after sign-up: {tokens.brief()}")
        t = tokens.json()
        return Person(email, PASSWORD, sub, t["access_token"], t["refresh_token"], t.get("device_token", ""))

    def sign_in(self, email: str, password: str, device_token: str | None = None) -> Answer:
        body = {"email": email, "password": password}
        if device_token:
            body["device_token"] = device_token
        return self.call("POST", "/v1/auth/signin", body=body)

    def create_tenant(self, person: Person, marketplace: bool = True) -> str:
        res = self.call("POST", "/v1/tenants", person.access_token, {"name": f"Probe {secrets.token_hex(3)}"})
        check(res.status == 201, f"create tenant: {res.brief()}")
        tenant_id = res.json()["id"]
        if marketplace:
            flag = self.call("PUT", f"/v1/tenants/{tenant_id}/features", person.access_token, {"marketplace_offers": True})
            check(flag.status == 200, f"feature flag: {flag.brief()}")
        return tenant_id

    def add_member(self, owner: Person, tenant_id: str, member: Person, role: str = "member") -> None:
        res = self.call("POST", f"/v1/tenants/{tenant_id}/members", owner.access_token, {"email": member.email, "role": role})
        check(res.status == 201, f"invite: {res.brief()}")
        invitations = self.call("GET", "/v1/users/me/invitations", member.access_token)
        check(invitations.status == 200, f"invitations: {invitations.brief()}")
        mine = [i for i in invitations.json()["invitations"] if i["tenant_id"] == tenant_id]
        check(bool(mine), f"no invitation to {tenant_id}: {invitations.brief()}")
        accept = self.call("POST", f"/v1/users/me/invitations/{mine[0]['invitation_id']}/accept", member.access_token)
        check(accept.status == 200, f"accept: {accept.brief()}")

    def marketplace(self, tenant_id: str) -> str:
        return f"/v1/tenants/{tenant_id}/integrations/marketplace"


# ---------------------------------------------------------------------------------------------
# OAuth, as an MCP client does it: discovery, RFC 7591 registration, code + PKCE through the
# authorization server's own sign-in and consent pages, the token endpoint.

HIDDEN = re.compile(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">')
OPTION = re.compile(r'<option value="([^"]+)"')
FORM_ACTION = re.compile(r'<form method="post" action="([^"]+)"')
REDIRECT_URI = "http://127.0.0.1:47999/callback"


def html_unescape(s: str) -> str:
    return s.replace("&quot;", '"').replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def pkce() -> tuple[str, str]:
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


@dataclass
class Grant:
    access_token: str
    refresh_token: str
    scope: str
    client_id: str
    raw: dict


@dataclass
class Consent:
    """What the consent page offered and what came back."""

    page: str
    tenants: list[str]
    answer: Answer


class OAuth:
    """A public MCP client. Discovery starts where a client starts: an unauthenticated POST to the MCP URL."""

    def __init__(self, stack: Stack, http: Http | None = None):
        self.stack = stack
        self.http = http or Http()
        first = self.http.json("POST", stack.mcp_endpoint, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        check(first.status == 401, f"an unauthenticated MCP call: {first.brief()}")
        m = re.search(r'resource_metadata="([^"]+)"', first.header("www-authenticate"))
        check(m is not None, f"no resource_metadata in the challenge: {first.header('www-authenticate')}")
        self.challenge = first.header("www-authenticate")
        prm = self.http.json("GET", m.group(1)).json()
        self.protected_resource = prm
        self.resource = prm["resource"]
        issuer = prm["authorization_servers"][0].rstrip("/")
        meta = self.http.json("GET", f"{issuer}/.well-known/oauth-authorization-server").json()
        check(meta is not None, "no authorization server metadata")
        self.metadata = meta
        self.issuer_origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(meta["issuer"]))
        self.client_id = ""

    def register(self, name: str = "issue-20 probe client", extra: dict | None = None) -> Answer:
        body = {
            "client_name": name,
            "redirect_uris": [REDIRECT_URI],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }
        body.update(extra or {})
        return self.http.json("POST", self.metadata["registration_endpoint"], body)

    def ensure_client(self) -> str:
        if not self.client_id:
            res = self.register()
            check(res.status == 201, f"client registration: {res.brief()}")
            self.client_id = res.json()["client_id"]
        return self.client_id

    def consent(self, person: Person, scope: str | None, tenant_id: str | None = None, decision: str = "allow"):
        """The browser part: the authorization page, the sign-in form, the consent form."""
        client_id = self.ensure_client()
        verifier, challenge = pkce()
        params = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": REDIRECT_URI,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": secrets.token_hex(8),
            "resource": self.resource,
        }
        if scope is not None:
            params["scope"] = scope
        page = self.http.request("GET", f"{self.metadata['authorization_endpoint']}?{urllib.parse.urlencode(params)}")
        check(page.status == 200, f"authorization page: {page.brief()}")
        origin = {"origin": self.issuer_origin}
        action = FORM_ACTION.search(page.text)
        check(action is not None, "no form on the sign-in page")
        signed_in = self.http.form(
            self.issuer_origin + html_unescape(action.group(1)),
            {**dict(HIDDEN.findall(page.text)), "email": person.email, "password": person.password},
            origin,
        )
        check(signed_in.status == 200, f"sign-in form: {signed_in.brief()}")
        fields = {k: html_unescape(v) for k, v in HIDDEN.findall(signed_in.text)}
        fields["decision"] = decision
        tenants = OPTION.findall(signed_in.text)
        chosen = tenant_id or (tenants[0] if tenants else None)
        if chosen:
            fields["tenant_id"] = chosen
        action = FORM_ACTION.search(signed_in.text)
        check(action is not None, "no form on the consent page")
        answer = self.http.form(self.issuer_origin + html_unescape(action.group(1)), fields, origin)
        return Consent(signed_in.text, tenants, answer), verifier

    def authorize(self, person: Person, scope: str | None, tenant_id: str | None = None) -> Grant:
        consent, verifier = self.consent(person, scope, tenant_id)
        location = consent.answer.header("location")
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).get("code", [None])[0]
        check(consent.answer.status == 303 and code, f"consent: {consent.answer.status} {location or consent.answer.text[:300]}")
        res = self.token(
            {
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": REDIRECT_URI,
                "client_id": self.client_id,
                "code_verifier": verifier,
                "resource": self.resource,
            }
        )
        check(res.status == 200, f"token: {res.brief()}")
        body = res.json()
        return Grant(body["access_token"], body.get("refresh_token", ""), body.get("scope", ""), self.client_id, body)

    def token(self, fields: dict[str, str]) -> Answer:
        return self.http.form(self.metadata["token_endpoint"], fields, {"accept": "application/json"})

    def refresh(self, grant: Grant) -> Answer:
        return self.token({"grant_type": "refresh_token", "refresh_token": grant.refresh_token, "client_id": grant.client_id})

    def revoke(self, token: str, hint: str | None = None, client_id: str | None = None) -> Answer:
        fields = {"token": token, "client_id": client_id or self.client_id}
        if hint:
            fields["token_type_hint"] = hint
        endpoint = self.metadata.get("revocation_endpoint") or f"{self.issuer_origin}/oauth/revoke"
        return self.http.form(endpoint, fields)


# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# The seller's side: a role in their own AWS account (the local emulator's IAM, SigV4-signed)

PRINCIPALS_FALLBACK = ["arn:aws:iam::123456789012:role/flowstate-dev-backend", "arn:aws:iam::123456789012:role/flowstate-dev-mcp-execution"]
CATALOG_POLICY = {
    "Version": "2012-10-17",
    "Statement": [
        {"Sid": "MarketplaceCatalogList", "Effect": "Allow", "Action": "aws-marketplace:ListEntities", "Resource": "*"},
        {
            "Sid": "MarketplaceCatalogManage",
            "Effect": "Allow",
            "Action": ["aws-marketplace:DescribeEntity", "aws-marketplace:StartChangeSet", "aws-marketplace:DescribeChangeSet"],
            "Resource": "*",
        },
        {"Sid": "MarketplaceAgreementRead", "Effect": "Allow", "Action": "aws-marketplace:SearchAgreements", "Resource": "*"},
    ],
}


def _hmac(key: bytes, msg: str) -> bytes:
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def sigv4_post(http: Http, endpoint: str, service: str, params: dict[str, str], creds: dict[str, str]) -> Answer:
    """An AWS query-protocol call (STS, IAM) signed with Signature Version 4."""
    body = urllib.parse.urlencode(params).encode()
    u = urllib.parse.urlsplit(endpoint)
    now = datetime.datetime.now(datetime.timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    region = "us-east-1"
    payload = hashlib.sha256(body).hexdigest()
    headers = {
        "content-type": "application/x-www-form-urlencoded; charset=utf-8",
        "host": u.netloc,
        "x-amz-content-sha256": payload,
        "x-amz-date": amz_date,
    }
    if creds.get("token"):
        headers["x-amz-security-token"] = creds["token"]
    names = sorted(headers)
    canonical = "\n".join(["POST", "/", "", "".join(f"{n}:{headers[n]}\n" for n in names), ";".join(names), payload])
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(_hmac(("AWS4" + creds["secret"]).encode(), day), region), service), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={creds['key']}/{scope}, SignedHeaders={';'.join(names)}, Signature={signature}"
    )
    del headers["host"]
    return http.request("POST", f"{endpoint.rstrip('/')}/", body, headers)


def _xml(text: str, tag: str) -> str:
    m = re.search(rf"<{tag}>([^<]*)</{tag}>", text)
    return m.group(1) if m else ""


class SellerAccount:
    """A fresh seller account in the emulator (its own 12-digit id) whose owner can edit their role."""

    ROLE = "MarketplaceConnector"

    def __init__(self, stack: Stack, http: Http | None = None):
        self.stack = stack
        self.http = http or Http()
        self.account_id = str(random.randint(200_000_000_000, 999_999_999_999))
        res = sigv4_post(
            self.http,
            stack.aws,
            "sts",
            {"Action": "AssumeRole", "Version": "2011-06-15", "RoleArn": f"arn:aws:iam::{self.account_id}:role/seller-admin", "RoleSessionName": "seller-admin"},
            {"key": "testing", "secret": "testing"},
        )
        check(res.status == 200, f"emulator STS (the seller's own credentials): {res.brief()}")
        self.creds = {"key": _xml(res.text, "AccessKeyId"), "secret": _xml(res.text, "SecretAccessKey"), "token": _xml(res.text, "SessionToken")}
        self.role_arn = f"arn:aws:iam::{self.account_id}:role/{self.ROLE}"

    def iam(self, params: dict[str, str]) -> Answer:
        res = sigv4_post(self.http, self.stack.aws, "iam", {"Version": "2010-05-08", **params}, self.creds)
        check(res.status == 200, f"IAM {params['Action']}: {res.brief()}")
        return res

    @staticmethod
    def trust(principals: list[str], condition: dict | None) -> str:
        statement = {"Effect": "Allow", "Principal": {"AWS": principals}, "Action": "sts:AssumeRole"}
        if condition:
            statement["Condition"] = condition
        return json.dumps({"Version": "2012-10-17", "Statement": [statement]})

    def create_role(self, principals: list[str], condition: dict | None) -> str:
        self.iam({"Action": "CreateRole", "RoleName": self.ROLE, "AssumeRolePolicyDocument": self.trust(principals, condition)})
        self.iam({"Action": "PutRolePolicy", "RoleName": self.ROLE, "PolicyName": "MarketplaceCatalogAccess", "PolicyDocument": json.dumps(CATALOG_POLICY)})
        self.flush()
        return self.role_arn

    def set_trust(self, principals: list[str], condition: dict | None) -> None:
        self.iam({"Action": "UpdateAssumeRolePolicy", "RoleName": self.ROLE, "PolicyDocument": self.trust(principals, condition)})
        self.flush()

    def flush(self) -> None:
        # The sandbox caches roles for half a second; its control plane forgets them at once.
        self.http.json("POST", f"{self.stack.sandbox}/_sandbox/iam/flush", {"roleArn": self.role_arn})


def onboarding(rest: Rest, owner: Person, tenant_id: str) -> tuple[str, list[str]]:
    """The tenant's external ID and the principals its role must trust, as the onboarding page gives them."""
    res = rest.call("GET", f"{rest.marketplace(tenant_id)}/onboarding", owner.access_token)
    check(res.status == 200, f"onboarding: {res.brief()}")
    body = res.json()
    principals = [p["arn"] for p in body.get("principals", [])] or PRINCIPALS_FALLBACK
    return body["external_id"], principals


def connected_tenant(rest: Rest, owner: Person, tenant_id: str) -> SellerAccount:
    """A seller account whose role trusts the tenant's external ID, connected over REST."""
    external_id, principals = onboarding(rest, owner, tenant_id)
    seller = SellerAccount(rest.stack, rest.http)
    seller.create_role(principals, {"StringEquals": {"sts:ExternalId": external_id}})
    res = rest.call("POST", rest.marketplace(tenant_id), owner.access_token, {"role_arn": seller.role_arn})
    check(res.status == 200, f"connect with a correct role: {res.brief()}")
    return seller


# ---------------------------------------------------------------------------------------------
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
