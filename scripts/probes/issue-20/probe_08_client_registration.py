#!/usr/bin/env python3
"""Finding 8: open client registration without limits or expiry.

One address registered 79 clients in 5 s, each up to 24 KB, never deleted; `client_name:
"Flowstate"` was accepted. Here: registrations per address are limited (429 + Retry-After, and
another address is unaffected), a 24 KB registration is refused, names that read as Flowstate are
refused. Expiry of never-used clients (a day) cannot be watched in a probe run.
"""

import sys

from flowstate_probe import Http, OAuth, ProbeSkipped, check, run_probes

LIMIT_SEARCH = 30  # the 79 in 5 s; any limit at or under this passes


def per_address_rate(stack):
    oauth = OAuth(stack, Http())  # a fresh address of its own
    statuses = []
    for i in range(LIMIT_SEARCH):
        res = oauth.register(f"probe burst client {i}")
        statuses.append(res.status)
        if res.status != 201:
            break
    check(statuses[0] == 201, f"the first registration from an address: {statuses}")
    check(statuses[-1] == 429, f"{len(statuses)} registrations from one address, no 429: {statuses}")
    check(bool(res.header("retry-after")), f"429 without Retry-After: {res.headers}")
    check((res.json() or {}).get("error") == "temporarily_unavailable", f"429 body (RFC 7591 error): {res.brief()}")
    other = OAuth(stack, Http()).register("probe client from elsewhere")
    check(other.status == 201, f"another address is not held by this one's limit: {other.brief()}")


def metadata_size_cap(stack):
    oauth = OAuth(stack, Http())
    big = oauth.register("probe big client", {"client_uri": "https://example.com/" + "a" * 24_000})
    check(400 <= big.status < 500, f"a 24 KB registration was accepted: {big.status}")
    padded = oauth.register("probe padded client", {"logo_uri": "https://example.com/logo.png", "x_padding": "p" * 24_000})
    check(400 <= padded.status < 500, f"a 24 KB registration (unknown member) was accepted: {padded.status}")
    long_name = oauth.register("n" * 5_000)
    check(400 <= long_name.status < 500, f"a 5,000-character client_name was accepted: {long_name.status}")


def impersonating_names(stack):
    oauth = OAuth(stack, Http())
    accepted = []
    for name in ["Flowstate", "flowstate", "FLOWSTATE MCP", "Flowstate Official", "Fl0wstate", "Ｆｌｏｗｓｔａｔｅ"]:
        res = oauth.register(name)
        if res.status == 201:
            accepted.append(name)
    check(not accepted, f"names that read as Flowstate were registered: {accepted}")
    plain = oauth.register("Probe notes app")
    check(plain.status == 201, f"an ordinary name: {plain.brief()}")


def unused_clients_expire(stack):
    raise ProbeSkipped("a never-used client is deleted a day after registration; not observable in a probe run")


PROBES = [
    ("08 registration: limited per address (429 + Retry-After), other addresses unaffected", per_address_rate),
    ("08 registration: 24 KB metadata refused", metadata_size_cap),
    ("08 registration: names that read as Flowstate refused", impersonating_names),
    ("08 registration: unused clients expire", unused_clients_expire),
]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
