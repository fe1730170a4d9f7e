#!/usr/bin/env python3
"""Finding 5: insert-only audit only against audit-svc (every other service logged in as `postgres`).

Which database role a service logs in as cannot be seen over HTTP: nothing a door answers names it,
and `npm start` prints only the administrator's URL it was given (the services get their own roles'
URLs, which it does not print). So from outside this probe can only skip, saying so; the check lives
where the database is reachable: scripts/start.test.ts (every schema owned by its service's role,
every service connected as its own role) and services/audit-svc's database-role tests.
"""

import re
import sys

from flowstate_probe import ProbeSkipped, run_probes


def database_roles(stack):
    printed = re.search(r"PostgreSQL\s+(\S+)", stack.summary or "")
    where = f" (npm start printed only the administrator's URL, {printed.group(1)})" if printed else ""
    raise ProbeSkipped(
        "not reachable from outside: no HTTP answer names a service's database role" + where
        + "; covered by scripts/start.test.ts and audit-svc's role tests"
    )


PROBES = [("05 database roles: each service its own non-superuser role", database_roles)]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
