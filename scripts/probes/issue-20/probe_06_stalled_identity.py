#!/usr/bin/env python3
"""Finding 6: a stalled identity-svc turns into 401s.

During a 10 s SIGSTOP of identity-svc, relayed calls of callers the doors had already cached were
held 9.5 s and answered 401 UNAUTHENTICATED (their signed assertion aged past its window while
queued), which sends people to sign in again. A slow upstream must answer 503 with Retry-After.

Needs a process signal, so it must run on the stack's host as the user who started it: identity-svc's
pid from --stack-file, FLOWSTATE_IDENTITY_PID, or the process listening on identity-svc's port (from
the printed summary). PROBE_STALL_SECONDS (default 10) is how long it is stopped; it is always
continued, whatever happens here.
"""

import os
import signal
import sys
import threading
import time
import urllib.parse

from flowstate_probe import ALL_SCOPES, Mcp, OAuth, ProbeSkipped, Rest, check, pid_listening_on, run_probes

STALL = float(os.environ.get("PROBE_STALL_SECONDS", "10"))
SIGN_IN_AGAIN = {"UNAUTHENTICATED", "INVALID_TOKEN", "SESSION_REVOKED", "ACCOUNT_INACTIVE"}


def _identity_pid(stack) -> int:
    pid = stack.pids.get("identity-svc")
    if pid is None and stack.identity:
        pid = pid_listening_on(urllib.parse.urlsplit(stack.identity).port)
    if pid is None:
        raise ProbeSkipped("identity-svc's pid is unknown (give --stack-file, FLOWSTATE_IDENTITY_PID or a summary naming identity-svc)")
    return pid


def stalled_identity(stack):
    pid = _identity_pid(stack)
    rest, mcp = Rest(stack), Mcp(stack)
    person = rest.sign_up("stall")
    tenant = rest.create_tenant(person)
    grant = OAuth(stack).authorize(person, ALL_SCOPES, tenant)
    token = person.access_token
    calls = {
        "REST GET /v1/users/me (identity-svc)": lambda: rest.call("GET", "/v1/users/me", token),
        "REST GET /v1/tenants/{id} (identity-svc)": lambda: rest.call("GET", f"/v1/tenants/{tenant}", token),
        "REST GET connector status (connector-svc)": lambda: rest.call("GET", rest.marketplace(tenant), token),
        "MCP get_marketplace_connector_status": lambda: mcp.tool(grant.access_token, "get_marketplace_connector_status", timeout=60),
    }
    for name, call in calls.items():  # cached callers: every door has seen them
        for _ in range(2):
            answer = call()
            served = bool(answer.served()) if hasattr(answer, "served") else answer.status == 200
            check(served, f"before the stall, {name}: {answer.brief()}")

    seen: dict[str, list] = {name: [] for name in calls}
    stop_at = [0.0]

    def keep_calling(name, call):
        while time.monotonic() < stop_at[0]:
            started = time.monotonic()
            try:
                answer = call()
            except Exception as e:  # a timeout or a reset is recorded, not fatal
                seen[name].append(("error", f"{type(e).__name__}: {e}", time.monotonic() - started))
                continue
            seen[name].append((answer, None, time.monotonic() - started))
            time.sleep(0.25)  # a client's pace, well under the per-credential rate limit

    os.kill(pid, signal.SIGSTOP)
    try:
        stop_at[0] = time.monotonic() + STALL - 0.5
        threads = [threading.Thread(target=keep_calling, args=item, daemon=True) for item in calls.items()]
        for t in threads:
            t.start()
        time.sleep(STALL)
    finally:
        os.kill(pid, signal.SIGCONT)
    for t in threads:
        t.join(60)

    problems = []
    for name, answers in seen.items():
        for answer, error, took in answers:
            if error:
                problems.append(f"{name}: no answer ({error}) after {took:.1f} s")
                continue
            http = answer.http if hasattr(answer, "http") else answer
            code = None
            if hasattr(answer, "tool_error"):
                code = (answer.tool_error() or {}).get("code")
            else:
                code = (answer.json() or {}).get("code") if http.status >= 400 else None
            if http.status == 401 or code in SIGN_IN_AGAIN:
                problems.append(f"{name}: {http.status} {code} after {took:.1f} s (a sign-in-again answer to a stall)")
            elif http.status >= 500 and not http.header("retry-after"):
                problems.append(f"{name}: {http.status} without Retry-After")
            elif http.status != 200 and http.status != 503:
                problems.append(f"{name}: {http.brief()}")
    # It recovers by itself once identity-svc answers again, at both doors: each has its own circuit
    # breaker for identity-svc, closed again by its next probe. The MCP door is asked with a call
    # that reaches identity-svc and changes nothing: delete_my_account for the tenant's owner, which
    # is refused (OWNS_ACTIVE_TENANTS). The probes after this one then meet a recovered stack.
    def mcp_reaches_identity():
        error = mcp.tool(grant.access_token, "delete_my_account", {"confirm": "delete"}).tool_error() or {}
        return error.get("code") == "OWNS_ACTIVE_TENANTS"

    deadline = time.monotonic() + 30
    while rest.call("GET", "/v1/users/me", token).status != 200 or not mcp_reaches_identity():
        check(time.monotonic() < deadline, "not recovered 30 s after identity-svc was continued")
        time.sleep(0.5)
    counts = {name: len(a) for name, a in seen.items()}
    if os.environ.get("PROBE_VERBOSE"):
        for name, answers in seen.items():
            shown = [(a if e else (a.http if hasattr(a, "http") else a).status, round(t, 2)) for a, e, t in answers]
            print(f"  {name}: {shown[:12]}", file=sys.stderr)
    check(all(counts.values()), f"some callers got no answer at all during the stall: {counts}")
    check(not problems, "; ".join(dict.fromkeys(problems)))


PROBES = [("06 stall: cached callers get 503 + Retry-After, never 401, while identity-svc is stopped", stalled_identity)]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
