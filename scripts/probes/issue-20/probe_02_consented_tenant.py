#!/usr/bin/env python3
"""Finding 2: the tenant chosen at consent is not enforced.

A token consented for tenant A called `POST /mcp/tenants/B` (B a tenant the same person belongs to)
and read B's external ID with `get_marketplace_onboarding`; an account-only token read B inside a
batch. Here: both, alone and batched, with a control call that shows the probe can see a success.
"""

import sys

from flowstate_probe import ALL_SCOPES, Mcp, OAuth, Rest, check, rpc_call, run_probes


def _two_tenants(stack):
    rest, oauth, mcp = Rest(stack), OAuth(stack), Mcp(stack)
    person = rest.sign_up("two-tenants")
    a = rest.create_tenant(person)
    b = rest.create_tenant(person)
    external_b = rest.call("GET", rest.marketplace(b), person.access_token).json()["external_id"]
    return rest, oauth, mcp, person, a, b, external_b


def token_for_a_on_b(stack):
    rest, oauth, mcp, person, a, b, external_b = _two_tenants(stack)
    for_a = oauth.authorize(person, ALL_SCOPES, a).access_token
    control = mcp.tool(for_a, "get_marketplace_onboarding", {}, f"/mcp/tenants/{a}")
    check(bool(control.served()), f"control: A's token on A's path: {control.brief()}")
    problems = []
    for label, answer in [
        ("tools/call on /mcp/tenants/B", mcp.tool(for_a, "get_marketplace_onboarding", {}, f"/mcp/tenants/{b}")),
        ("status on /mcp/tenants/B", mcp.tool(for_a, "get_marketplace_connector_status", {}, f"/mcp/tenants/{b}")),
        ("batch on /mcp/tenants/B", mcp.batch(for_a, [rpc_call("get_marketplace_onboarding", {})], f"/mcp/tenants/{b}")),
        ("tools/list on /mcp/tenants/B", mcp.post(for_a, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, f"/mcp/tenants/{b}")),
    ]:
        if external_b in answer.http.text:
            problems.append(f"{label} shows B's external ID: {answer.brief()}")
        elif label.startswith("tools/list"):
            if answer.status == 200:
                problems.append(f"{label} answered 200 (B is not the consented tenant)")
        elif answer.served():
            problems.append(f"{label} was served: {answer.brief()}")
    check(not problems, "; ".join(problems))


def account_only_token_on_a_tenant_path(stack):
    rest, oauth, mcp, person, a, b, external_b = _two_tenants(stack)
    account_only = oauth.authorize(person, "account").access_token
    problems = []
    for label, answer in [
        ("tools/call", mcp.tool(account_only, "get_marketplace_onboarding", {}, f"/mcp/tenants/{b}")),
        ("batch", mcp.batch(account_only, [rpc_call("get_marketplace_onboarding", {})], f"/mcp/tenants/{b}")),
        ("tools/call at /mcp", mcp.tool(account_only, "get_marketplace_onboarding", {}, "/mcp")),
        ("batch at /mcp", mcp.batch(account_only, [rpc_call("get_marketplace_onboarding", {})], "/mcp")),
    ]:
        if external_b in answer.http.text or answer.served():
            problems.append(f"{label}: {answer.brief()}")
    check(not problems, "an account-only token read a tenant: " + "; ".join(problems))
    # The person tools stay its own: the account scope works at /mcp.
    own = mcp.tool(account_only, "export_my_data", {}, "/mcp")
    check(bool(own.served()), f"control: export_my_data with the account scope at /mcp: {own.brief()}")


PROBES = [
    ("02 tenant: a token consented for A cannot act in B (a tenant of the same person)", token_for_a_on_b),
    ("02 tenant: an account-only token reads no tenant, alone or batched", account_only_token_on_a_tenant_path),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
