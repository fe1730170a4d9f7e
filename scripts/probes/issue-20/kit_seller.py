"""The seller's side: a role in their own AWS account (the emulator's IAM, SigV4-signed), connected over REST."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import http.client
import json
import random
import re
import urllib.parse

from kit_core import Answer, Http, Stack, check
from kit_rest import Person, Rest


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
