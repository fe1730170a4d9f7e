"""OAuth as an MCP client does it: discovery, registration, code + PKCE through the sign-in and consent forms."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import re
import secrets
import urllib.parse
from dataclasses import dataclass

from kit_core import Answer, Http, Stack, check
from kit_rest import Person


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
