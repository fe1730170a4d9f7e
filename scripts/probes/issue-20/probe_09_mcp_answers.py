#!/usr/bin/env python3
"""Issue 20, "MCP answers and set-up that leave the user stuck".

- delete_my_account for an owner answers OWNS_ACTIVE_TENANTS with the tenant ids REST's 409 lists;
- a person with no tenant can authorize a stock client (which asks for every scope the resource
  metadata lists): the account scope is granted and the page says what was left out;
- REST sign-out ends this session only (the MCP grant keeps working), sign out everywhere ends the
  MCP grant too, and the API says which is which;
- the 401 challenge carries `scope=`; initialize does not advertise `listChanged: true`;
- a bad argument comes back with the VALIDATION_FAILED code.
"""

import sys

from flowstate_probe import ALL_SCOPES, Mcp, OAuth, Rest, check, refused_with_challenge, run_probes


def delete_for_owner_names_tenants(stack):
    rest, mcp = Rest(stack), Mcp(stack)
    owner = rest.sign_up("owner-delete")
    tenant = rest.create_tenant(owner)
    grant = OAuth(stack).authorize(owner, ALL_SCOPES, tenant)
    answer = mcp.tool(grant.access_token, "delete_my_account", {"confirm": "delete"})
    error = answer.tool_error()
    check(error is not None, f"delete_my_account for an owner: {answer.brief()}")
    check(error.get("code") == "OWNS_ACTIVE_TENANTS", f"code: {error}")
    check(tenant in (error.get("tenant_ids") or []), f"the MCP answer does not list the blocking tenant ids: {error}")
    over_rest = rest.call("DELETE", "/v1/users/me", owner.access_token)
    check(over_rest.status == 409, f"REST: {over_rest.brief()}")
    check(set(over_rest.json().get("tenant_ids", [])) == set(error.get("tenant_ids", [])),
          f"REST lists {over_rest.json().get('tenant_ids')}, MCP {error.get('tenant_ids')}")


def no_tenant_person_authorizes_stock_client(stack):
    rest, mcp = Rest(stack), Mcp(stack)
    oauth = OAuth(stack)
    person = rest.sign_up("no-tenant")
    # A stock client asks for what the challenge and the resource metadata list: every scope.
    stock_scope = " ".join(oauth.protected_resource.get("scopes_supported") or ALL_SCOPES.split())
    consent, _ = oauth.consent(person, stock_scope, decision="deny")
    check('value="allow"' in consent.page, "the consent page offers no Allow button to a person with no tenant")
    check("left out" in consent.page.lower(), "the consent page does not say what was left out")
    grant = oauth.authorize(person, stock_scope)
    check(grant.scope.split() == ["account"], f"granted scope should be the account scope alone, got {grant.scope!r}")
    export = mcp.tool(grant.access_token, "export_my_data")
    check(bool(export.served()), f"the granted account scope works: {export.brief()}")


def signout_here_and_everywhere(stack):
    rest, mcp = Rest(stack), Mcp(stack)
    person = rest.sign_up("signouts")
    tenant = rest.create_tenant(person)
    grant = OAuth(stack).authorize(person, ALL_SCOPES, tenant)
    check(bool(mcp.tool(grant.access_token, "get_marketplace_connector_status").served()), "MCP works before")
    here = rest.call("POST", "/v1/auth/signout", person.access_token)
    check(here.status == 204, f"sign out here: {here.brief()}")
    check(rest.call("GET", "/v1/users/me", person.access_token).status == 401, "the REST session is over")
    kept = mcp.tool(grant.access_token, "get_marketplace_connector_status")
    check(bool(kept.served()), f"sign out here ended the MCP grant too (it says it keeps them): {kept.brief()}")
    again = rest.sign_in(person.email, person.password)
    check(again.status == 200, f"sign in again: {again.brief()}")
    everywhere = rest.call("POST", "/v1/auth/signout-everywhere", again.json()["access_token"])
    check(everywhere.status == 204, f"sign out everywhere: {everywhere.brief()}")
    # Its refresh token is identity-svc's own state: refused at once. (That the access token is
    # refused at the MCP door by the very next call is finding 3's probe.)
    refreshed = OAuth(stack).refresh(grant)
    check(refreshed.status == 400, f"the MCP grant's refresh token still works after sign out everywhere: {refreshed.brief()}")
    docs = rest.http.request("GET", f"{stack.edge}/openapi.json")
    check(docs.status == 200, f"GET /openapi.json: {docs.status}")
    check("/v1/auth/signout-everywhere" in docs.text, "the API description does not offer sign out everywhere")
    check("MCP" in docs.text and "keep working" in docs.text, "the API does not say which sign-out ends the MCP grants")


def challenge_has_scope(stack):
    mcp = Mcp(stack)
    for label, token in [("no token", None), ("a bad token", "not-a-real-token")]:
        answer = mcp.post(token, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        challenge = answer.http.header("www-authenticate")
        check(answer.status == 401, f"{label}: {answer.brief()}")
        check("scope=" in challenge, f"{label}: the 401 challenge has no scope=: {challenge!r}")
        check("resource_metadata=" in challenge, f"{label}: no resource_metadata=: {challenge!r}")
        if token:
            check('error="invalid_token"' in challenge, f"a bad token's challenge: {challenge!r}")


def initialize_without_list_changed(stack):
    rest, mcp = Rest(stack), Mcp(stack)
    person = rest.sign_up("init")
    grant = OAuth(stack).authorize(person, "account")
    answer = mcp.post(grant.access_token, {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}},
    })
    check(answer.status == 200 and answer.messages, f"initialize: {answer.brief()}")
    capabilities = answer.messages[0].get("result", {}).get("capabilities", {})
    check(capabilities.get("tools", {}).get("listChanged") is not True, f"a stateless server advertises listChanged: {capabilities}")


def bad_argument_is_validation_failed(stack):
    rest, mcp = Rest(stack), Mcp(stack)
    person = rest.sign_up("validation")
    grant = OAuth(stack).authorize(person, "account")
    for label, args in [("a wrong type", {"job_id": 12345}), ("an unknown argument", {"job_id": "exp_0000000000000000000000", "extra": 1}), ("a missing argument", {})]:
        answer = mcp.tool(grant.access_token, "get_my_export_status", args)
        error = answer.tool_error()
        if error is None:  # a JSON-RPC error is also an answer; it must carry the code too
            check("VALIDATION_FAILED" in answer.http.text, f"{label}: {answer.brief()}")
        else:
            check(error.get("code") == "VALIDATION_FAILED", f"{label}: {error}")


PROBES = [
    ("MCP: delete_my_account for an owner lists the tenant ids, as REST's 409", delete_for_owner_names_tenants),
    ("MCP: a person with no tenant authorizes a stock client (account scope granted)", no_tenant_person_authorizes_stock_client),
    ("MCP: REST sign-out keeps MCP grants, sign out everywhere ends them", signout_here_and_everywhere),
    ("MCP: the 401 challenge carries scope=", challenge_has_scope),
    ("MCP: initialize does not advertise listChanged: true", initialize_without_list_changed),
    ("MCP: a bad argument answers VALIDATION_FAILED", bad_argument_is_validation_failed),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
