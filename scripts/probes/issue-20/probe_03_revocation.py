#!/usr/bin/env python3
"""Finding 3: revocation reaches the MCP door late.

After a sign-out everywhere, an RFC 7009 revocation, `DELETE /v1/users/me/authorized-clients/{ref}`,
a refresh-token replay or an account deletion over REST, the *next* MCP call with the access token
was still served (118–350 ms later it was refused). The revoking call goes to the edge gateway, the
MCP call to mcp-gateway, another process with its own caches: the call made right after the
revoking call answers must be HTTP 401 with `WWW-Authenticate` (never a 200, and never an isError
`SESSION_REVOKED` at 200, which sends no client back to authorization). Each kind is tried
PROBE_REVOCATION_ROUNDS times (default 5), the MCP door's caches warmed before each revocation.
"""

import os
import sys
import time

from flowstate_probe import ALL_SCOPES, Mcp, OAuth, Rest, check, refused_with_challenge, run_probes

ROUNDS = int(os.environ.get("PROBE_REVOCATION_ROUNDS", "5"))
# After a served call, how long to keep asking, to say how late the refusal came (a diagnosis only).
WAIT = float(os.environ.get("PROBE_REVOCATION_WAIT_SECONDS", "3"))


def _warm(mcp, token, name="get_marketplace_connector_status", args=None, path="/mcp"):
    for _ in range(2):
        answer = mcp.tool(token, name, args or {}, path)
        check(bool(answer.served()), f"before the revocation the token works: {answer.brief()}")


def _refused_next(mcp, token, name="get_marketplace_connector_status", args=None):
    """None when the very next call is the 401 challenge; else what it was, and when (if) it came."""
    verdict = refused_with_challenge(mcp.tool(token, name, args or {}))
    if verdict is None:
        return None
    started = time.monotonic()
    while time.monotonic() - started < WAIT:
        time.sleep(0.05)
        if refused_with_challenge(mcp.tool(token, name, args or {})) is None:
            return f"{verdict[:160]} (refused {int((time.monotonic() - started) * 1000)} ms later)"
    return f"{verdict[:160]} (still not refused {WAIT:g} s later)"


def _rounds(stack, kind, one_round):
    failures = []
    for i in range(ROUNDS):
        verdict = one_round(stack)
        if verdict:
            failures.append(f"round {i + 1}: {verdict}")
            if len(failures) == 2:
                break  # the verdict is in; spare the stack the remaining rounds
    check(not failures, f"{kind}: {len(failures)} of {i + 1} rounds failed: " + "; ".join(failures[:2]))


def _person_with_grant(stack):
    rest, oauth, mcp = Rest(stack), OAuth(stack), Mcp(stack)
    person = rest.sign_up("revoke")
    tenant = rest.create_tenant(person)
    grant = oauth.authorize(person, ALL_SCOPES, tenant)
    _warm(mcp, grant.access_token)
    return rest, oauth, mcp, person, tenant, grant


def signout_everywhere(stack):
    def one(stack):
        rest, oauth, mcp, person, tenant, grant = _person_with_grant(stack)
        res = rest.call("POST", "/v1/auth/signout-everywhere", person.access_token)
        check(res.status == 204, f"sign out everywhere: {res.brief()}")
        verdict = _refused_next(mcp, grant.access_token)
        rest_after = rest.call("GET", "/v1/users/me", person.access_token)
        if rest_after.status != 401:
            verdict = (verdict or "") + f" REST token after sign-out everywhere: {rest_after.status}"
        return verdict

    _rounds(stack, "sign out everywhere", one)


def rfc7009_revoke(stack):
    def one(stack):
        rest, oauth, mcp, person, tenant, grant = _person_with_grant(stack)
        res = oauth.revoke(grant.refresh_token, "refresh_token")
        check(res.status == 200, f"revoke: {res.brief()}")
        return _refused_next(mcp, grant.access_token)

    _rounds(stack, "RFC 7009 revocation of the refresh token", one)


def authorized_client_delete(stack):
    def one(stack):
        rest, oauth, mcp, person, tenant, grant = _person_with_grant(stack)
        listed = rest.call("GET", "/v1/users/me/authorized-clients", person.access_token)
        check(listed.status == 200, f"authorized clients: {listed.brief()}")
        ref = next((c["client_ref"] for c in listed.json()["authorized_clients"] if c["client_id"] == grant.client_id), None)
        check(ref is not None, f"the client is not listed: {listed.brief()}")
        res = rest.call("DELETE", f"/v1/users/me/authorized-clients/{ref}", person.access_token)
        check(res.status == 204, f"revoke the application: {res.brief()}")
        return _refused_next(mcp, grant.access_token)

    _rounds(stack, "DELETE /v1/users/me/authorized-clients/{ref}", one)


def refresh_replay(stack):
    def one(stack):
        rest, oauth, mcp, person, tenant, grant = _person_with_grant(stack)
        fresh = oauth.refresh(grant)
        check(fresh.status == 200, f"refresh: {fresh.brief()}")
        second = fresh.json()["access_token"]
        _warm(mcp, second)
        replay = oauth.refresh(grant)  # the spent refresh token again: the family ends
        check(replay.status == 400, f"a replayed refresh token must be refused: {replay.brief()}")
        verdict = _refused_next(mcp, second)
        return f"the newest access token: {verdict}" if verdict else None

    _rounds(stack, "refresh-token replay", one)


def account_deletion(stack):
    def one(stack):
        rest, oauth, mcp = Rest(stack), OAuth(stack), Mcp(stack)
        person = rest.sign_up("delete-me")  # no tenant: nothing blocks the deletion
        grant = oauth.authorize(person, "account")
        started = mcp.tool(grant.access_token, "export_my_data")
        check(bool(started.served()), f"export_my_data: {started.brief()}")
        job_id = started.structured()["job_id"]
        _warm(mcp, grant.access_token, "get_my_export_status", {"job_id": job_id})
        res = rest.call("DELETE", "/v1/users/me", person.access_token)
        check(res.status == 200, f"delete the account: {res.brief()}")
        return _refused_next(mcp, grant.access_token, "get_my_export_status", {"job_id": job_id})

    _rounds(stack, "account deletion over REST", one)


def api_key_revocation(stack):
    def one(stack):
        rest, mcp = Rest(stack), Mcp(stack)
        owner = rest.sign_up("key-owner")
        tenant = rest.create_tenant(owner)
        key = rest.call("POST", f"/v1/tenants/{tenant}/api-keys", owner.access_token, {"name": "probe key", "scope": "read"})
        check(key.status == 201, f"API key: {key.brief()}")
        secret, key_id = key.json()["secret"], key.json()["key_id"]
        _warm(mcp, secret)
        res = rest.call("DELETE", f"/v1/tenants/{tenant}/api-keys/{key_id}", owner.access_token)
        check(res.status == 204, f"revoke the key: {res.brief()}")
        return _refused_next(mcp, secret)

    _rounds(stack, "API key revocation", one)


def rest_signout_here(stack):
    def one(stack):
        rest = Rest(stack)
        person = rest.sign_up("signout")
        for _ in range(2):
            check(rest.call("GET", "/v1/users/me", person.access_token).status == 200, "before sign-out")
        res = rest.call("POST", "/v1/auth/signout", person.access_token)
        check(res.status == 204, f"sign out: {res.brief()}")
        after = rest.call("GET", "/v1/users/me", person.access_token)
        return None if after.status == 401 else f"REST after sign-out: {after.brief()}"

    _rounds(stack, "REST sign-out", one)


PROBES = [
    ("03 revocation: sign out everywhere, then the next MCP call is 401", signout_everywhere),
    ("03 revocation: RFC 7009 revoke, then the next MCP call is 401", rfc7009_revoke),
    ("03 revocation: DELETE authorized-clients/{ref}, then the next MCP call is 401", authorized_client_delete),
    ("03 revocation: refresh-token replay, then the next MCP call is 401", refresh_replay),
    ("03 revocation: account deletion over REST, then the next MCP call is 401", account_deletion),
    ("03 revocation: API key revoked, then the next MCP call is 401", api_key_revocation),
    ("03 revocation: REST sign-out, then the next REST call is 401", rest_signout_here),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
