"""Black-box probe kit for issue 20: HTTP only, Python 3 standard library only.

Everything here talks to the URLs `npm start` prints, as an outsider would: the edge gateway's REST
API and its OAuth authorization server (sign-in and consent pages posted as a browser posts them),
mcp-gateway's Streamable HTTP endpoint, the seller sandbox's control plane, and the local AWS
emulator's IAM, where a seller creates their own role (in AWS, the seller's own account).

Each probe runs from its own loopback source address (127.x.y.z, all of which reach 127.0.0.1 on
Linux): the doors count rate limits and client registrations per address, and a fresh address per
run keeps one run's counts from deciding the next run's verdict, as two attackers' machines would.


The kit is split by what it speaks (kit_core, kit_rest, kit_oauth, kit_mcp, kit_seller); the probes
import everything from here.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kit_core import *  # noqa: E402,F401,F403
from kit_mcp import *  # noqa: E402,F401,F403
from kit_oauth import *  # noqa: E402,F401,F403
from kit_rest import *  # noqa: E402,F401,F403
from kit_seller import *  # noqa: E402,F401,F403
