"""REST through the edge gateway: people, tenants, members."""

from __future__ import annotations

import http.client
import json
import secrets
from dataclasses import dataclass

from kit_core import Answer, Http, Stack, check


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
