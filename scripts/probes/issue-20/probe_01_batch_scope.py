#!/usr/bin/env python3
"""Finding 1: a JSON-RPC batch skips the scope check.

A token granted only `marketplace:read` was refused `disconnect_marketplace_connector` alone (403
insufficient_scope) but the same call inside a batch body (`[{...}]`) got 200 and disconnected the
connector; `export_my_data` started an export and `delete_my_account` deleted the account that way.
Here: every tool, alone and in a batch, with a token that lacks its scope; the three with effects
are checked for their effect too. A batch may be refused as a whole or each call refused; nothing in
it may be served.
"""

import datetime
import sys

from flowstate_probe import (
    ALL_SCOPES,
    TOOL_SCOPES,
    Mcp,
    OAuth,
    Rest,
    check,
    connected_tenant,
    rpc_call,
    run_probes,
)


def _world(stack):
    rest, oauth, mcp = Rest(stack), OAuth(stack), Mcp(stack)
    owner = rest.sign_up("batch-owner")
    tenant = rest.create_tenant(owner)
    connected_tenant(rest, owner, tenant)
    member = rest.sign_up("batch-member")
    rest.add_member(owner, tenant, member, "member")
    tokens = {
        # Lacks marketplace:read (and has no tenant): account only.
        "account-only": oauth.authorize(owner, "account").access_token,
        # Lacks marketplace:write and account.
        "read-only": oauth.authorize(owner, "marketplace:read", tenant).access_token,
        # A member (no tenant of her own, so her deletion would go through) with read only: lacks account.
        "member-read": oauth.authorize(member, "marketplace:read", tenant).access_token,
    }
    offers = rest.call("GET", f"{rest.marketplace(tenant)}/offers?limit=50", owner.access_token)
    check(offers.status == 200, f"offers: {offers.brief()}")
    listed = offers.json()["offers"]
    released = next((o["offer_id"] for o in listed if o["state"] == "released"), "offer-0000000000000")
    products = rest.call("GET", f"{rest.marketplace(tenant)}/products?limit=50", owner.access_token)
    public = next((p for p in products.json().get("products", []) if "ublic" in str(p)), None) if products.status == 200 else None
    product_id = (public or {}).get("product_id") or (public or {}).get("id") or "prod-0000000000000"
    day = lambda n: (datetime.date.today() + datetime.timedelta(days=n)).isoformat()  # noqa: E731
    args = {
        "clone_private_offer": {"offer_id": released},
        "connect_marketplace_connector": {"role_arn": "arn:aws:iam::123456789012:role/MarketplaceConnector"},
        "create_private_offer": {
            "product_id": product_id,
            "name": "Probe offer",
            "description": "An offer a read-only token must not create",
            "buyer_accounts": ["444455556666"],
            "pricing": {"model": "contract", "currency": "USD", "price": "0.00", "dimensions": [{"key": "BasicService", "quantity": 1}]},
            "payment_schedule": [{"charge_date": day(40), "amount": "12000.00"}],
            "legal_terms": {"eula": {"type": "standard", "version": "2022-07-14"}},
            "validity": {"duration": "P12M"},
            "availability_end_date": day(30),
        },
        "delete_my_account": {"confirm": "delete"},
        "expire_private_offer": {"offer_id": released},
        "get_my_export_status": {"job_id": "exp_0000000000000000000000"},
        "get_offer_change_status": {"change_set_id": "abc123"},
        "get_private_offer": {"offer_id": released},
        "list_marketplace_products": {"limit": 1},
        "list_private_offers": {"limit": 1},
        "list_purchase_agreements": {"limit": 1},
        "release_private_offer": {"offer_id": released},
    }
    lacking = {"marketplace:read": "account-only", "marketplace:write": "read-only", "account": "member-read"}

    def effects():
        status = rest.call("GET", rest.marketplace(tenant), owner.access_token).json() or {}
        offers_now = rest.call("GET", f"{rest.marketplace(tenant)}/offers?limit=50", owner.access_token).json() or {}
        return {
            "connected": status.get("connected"),
            "offers": sorted((o["offer_id"], o["state"]) for o in offers_now.get("offers", [])),
            "member account": rest.call("GET", "/v1/users/me", member.access_token).status,
        }

    return rest, mcp, owner, member, tenant, tokens, args, lacking, effects


def every_tool_batched_without_its_scope(stack):
    rest, mcp, owner, member, tenant, tokens, args, lacking, effects = _world(stack)
    path = f"/mcp/tenants/{tenant}"
    # The probe can see a success: the read token reads the status it is allowed to read.
    control = mcp.tool(tokens["read-only"], "get_marketplace_connector_status", {}, path)
    check(control.served() and (control.structured() or {}).get("connected") is True, f"control call: {control.brief()}")
    before = effects()
    problems = []
    for tool, scope in TOOL_SCOPES.items():
        who = lacking[scope]
        for where in (path, "/mcp"):
            answer = mcp.batch(tokens[who], [rpc_call(tool, args.get(tool, {}))], where)
            if answer.served():
                problems.append(f"{tool} in a batch at {where} with the {who} token (no {scope}) was served: {answer.brief()}")
        after = effects()
        if after != before:
            problems.append(f"{tool} in a batch changed state: {before} -> {after}")
            before = after
    # A batch that mixes an allowed call with one that is not.
    mixed = mcp.batch(
        tokens["read-only"],
        [rpc_call("get_marketplace_connector_status", {}, 1), rpc_call("disconnect_marketplace_connector", {}, 2)],
        path,
    )
    if any(m.get("id") == 2 for m in mixed.served()):
        problems.append(f"a mixed batch served the disconnect: {mixed.brief()}")
    final = effects()
    check(final["connected"] is True, f"the connector was disconnected by a read-only token's batch: {final}")
    check(final["member account"] == 200, f"the member's account was deleted by a batch without the account scope: {final}")
    check(not problems, "; ".join(problems[:6]) + (f" (+{len(problems) - 6} more)" if len(problems) > 6 else ""))


def every_tool_alone_without_its_scope(stack):
    rest, mcp, owner, member, tenant, tokens, args, lacking, effects = _world(stack)
    path = f"/mcp/tenants/{tenant}"
    before = effects()
    problems = []
    for tool, scope in TOOL_SCOPES.items():
        who = lacking[scope]
        answer = mcp.tool(tokens[who], tool, args.get(tool, {}), path if scope != "account" else "/mcp")
        if answer.served():
            problems.append(f"{tool} with the {who} token (no {scope}): {answer.brief()}")
        elif answer.status == 403 and "insufficient_scope" not in answer.http.header("www-authenticate"):
            problems.append(f"{tool}: 403 without error=\"insufficient_scope\" in WWW-Authenticate")
    check(effects() == before, f"a refused call changed state: {before} -> {effects()}")
    check(not problems, "; ".join(problems[:6]))


def disconnect_export_delete_in_a_batch(stack):
    """The issue's three exploits exactly: read-only token, batch bodies, the effect checked."""
    rest, mcp, owner, member, tenant, tokens, args, lacking, effects = _world(stack)
    path = f"/mcp/tenants/{tenant}"
    disconnect = mcp.batch(tokens["read-only"], [rpc_call("disconnect_marketplace_connector", {})], path)
    status = rest.call("GET", rest.marketplace(tenant), owner.access_token).json()
    check(not disconnect.served() and status.get("connected") is True, f"batch disconnect with marketplace:read: {disconnect.brief()}; status {status}")
    export = mcp.batch(tokens["member-read"], [rpc_call("export_my_data", {})], path)
    check(not export.served(), f"batch export_my_data without the account scope was served: {export.brief()}")
    delete = mcp.batch(tokens["member-read"], [rpc_call("delete_my_account", {"confirm": "delete"})], "/mcp")
    me = rest.call("GET", "/v1/users/me", member.access_token)
    check(not delete.served() and me.status == 200, f"batch delete_my_account without the account scope: {delete.brief()}; /v1/users/me {me.status}")
    # And with the full-scope token of another tenant's owner? Covered by probe 02; here the batch
    # with a token that has every scope is answered as the server decided batches are answered.
    full = OAuth(stack).authorize(owner, ALL_SCOPES, tenant).access_token
    answer = mcp.batch(full, [rpc_call("get_marketplace_connector_status", {})], path)
    check(answer.status in (200, 400), f"a batch with a sufficient token: {answer.brief()}")
    if answer.status == 400:
        codes = [m.get("error", {}).get("code") for m in answer.messages]
        check(-32600 in codes, f"a refused batch should be a JSON-RPC Invalid Request (-32600): {answer.brief()}")


PROBES = [
    ("01 batch: disconnect/export/delete with a read-only token are not served", disconnect_export_delete_in_a_batch),
    ("01 batch: every tool in a batch without its scope is not served", every_tool_batched_without_its_scope),
    ("01 single: every tool alone without its scope is refused", every_tool_alone_without_its_scope),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
