#!/usr/bin/env python3
"""Issue 20's probes against a running `npm start`: one PASS/FAIL/SKIP line per probe; exit 1 on any FAIL.

    python3 run_all.py --summary <file with npm start's output>     # or --stack-file <FLOWSTATE_STACK_FILE json>

PROBE_SKIP=06,03 leaves out the probes whose name starts with those prefixes (with a SKIP line);
PROBE_ONLY=01 runs only those. PROBE_REVOCATION_ROUNDS (5) and PROBE_STALL_SECONDS (10) as in the
probes' files. Python 3 standard library only; see README.md here.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import probe_01_batch_scope  # noqa: E402
import probe_02_consented_tenant  # noqa: E402
import probe_03_revocation  # noqa: E402
import probe_04_confused_deputy  # noqa: E402
import probe_05_database_roles  # noqa: E402
import probe_06_stalled_identity  # noqa: E402
import probe_07_lockout  # noqa: E402
import probe_08_client_registration  # noqa: E402
import probe_09_mcp_answers  # noqa: E402
from flowstate_probe import ProbeSkipped, run_probes  # noqa: E402

MODULES = [
    probe_01_batch_scope,
    probe_02_consented_tenant,
    probe_03_revocation,
    probe_04_confused_deputy,
    probe_05_database_roles,
    probe_06_stalled_identity,
    probe_07_lockout,
    probe_08_client_registration,
    probe_09_mcp_answers,
]


def _prefixes(name: str) -> list[str]:
    return [p.strip() for p in os.environ.get(name, "").split(",") if p.strip()]


def _left_out(reason: str):
    def skipped(stack):
        raise ProbeSkipped(reason)

    return skipped


def main(argv: list[str]) -> int:
    skip, only = _prefixes("PROBE_SKIP"), _prefixes("PROBE_ONLY")
    probes = []
    for module in MODULES:
        for name, fn in module.PROBES:
            if any(name.startswith(p) for p in skip):
                probes.append((name, _left_out("left out by PROBE_SKIP")))
            elif not only or any(name.startswith(p) for p in only):
                probes.append((name, fn))
    return run_probes(probes, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
