#!/usr/bin/env python3
"""Finding 4: confused deputy on a misconfigured seller role.

A role whose trust policy has no `sts:ExternalId` condition connected (200), and a second tenant
could then connect the same role and list the seller's products. The seller edits their own role
in their own AWS account (here: the local emulator's IAM, signed as the seller); everything else
goes through the REST API.
"""

import sys

from flowstate_probe import Rest, SellerAccount, check, onboarding, run_probes


def role_without_external_id_condition(stack):
    rest = Rest(stack)
    owner = rest.sign_up("deputy")
    tenant = rest.create_tenant(owner)
    _, principals = onboarding(rest, owner, tenant)
    for label, condition in [("no condition", None), ('StringLike "*"', {"StringLike": {"sts:ExternalId": "*"}})]:
        seller = SellerAccount(stack, rest.http)
        seller.create_role(principals, condition)
        res = rest.call("POST", rest.marketplace(tenant), owner.access_token, {"role_arn": seller.role_arn})
        check(res.status != 200, f"a role whose trust policy has {label} connected: {res.brief()}")
        check(400 <= res.status < 500, f"connect with {label}: expected a 4xx naming the problem, got {res.brief()}")
        check(
            "external" in res.text.lower(),
            f"the refusal of {label} should say the external ID is not enforced: {res.brief()}",
        )
        status = rest.call("GET", rest.marketplace(tenant), owner.access_token).json()
        check(status.get("connected") is False, f"after the refused connect the tenant shows {status}")
        products = rest.call("GET", f"{rest.marketplace(tenant)}/products", owner.access_token)
        check(products.status != 200, f"products listed through a refused role ({label}): {products.brief()}")


def second_tenant_same_seller_account(stack):
    rest = Rest(stack)
    owner_a, owner_b = rest.sign_up("seller-a"), rest.sign_up("tenant-b")
    a, b = rest.create_tenant(owner_a), rest.create_tenant(owner_b)
    external_a, principals = onboarding(rest, owner_a, a)
    external_b, _ = onboarding(rest, owner_b, b)
    seller = SellerAccount(stack, rest.http)
    # A trust policy that lets both tenants' external IDs in: only one tenant per account stands between them.
    seller.create_role(principals, {"StringEquals": {"sts:ExternalId": [external_a, external_b]}})
    first = rest.call("POST", rest.marketplace(a), owner_a.access_token, {"role_arn": seller.role_arn})
    check(first.status == 200, f"tenant A connects its seller account: {first.brief()}")
    second = rest.call("POST", rest.marketplace(b), owner_b.access_token, {"role_arn": seller.role_arn})
    check(second.status == 409, f"tenant B connecting the same seller account: expected 409, got {second.brief()}")
    check("disconnect" in second.text.lower(), f"the 409 should say what to do (disconnect it there first): {second.brief()}")
    check(a not in second.text and external_a not in second.text, f"the 409 names the other tenant: {second.brief()}")
    products = rest.call("GET", f"{rest.marketplace(b)}/products", owner_b.access_token)
    check(products.status != 200, f"tenant B lists the seller's products: {products.brief()}")


PROBES = [
    ("04 deputy: a role without an sts:ExternalId condition is refused at connect", role_without_external_id_condition),
    ("04 deputy: a second tenant connecting the same seller account gets 409", second_tenant_same_seller_account),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
