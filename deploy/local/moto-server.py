"""
moto_server as installed, with two costs that grow without bound taken out. Both change how long
moto takes, never what it answers.

1. jsonpath-ng expressions parsed once. moto 5.2 turns every event
   EventBridge delivers to a target (an SQS queue here) into the target's input by parsing the eight JSONPath expressions of the
   default input paths again (moto/events/utils.py, EventTemplateParser.parse), and jsonpath-ng 1.8
   rebuilds its whole LALR parser table on each parse: about 70 ms of CPU each, over half a second
   per delivered event. The expressions are constants and a parsed expression is immutable.

2. SendMessage without counting the queue. moto's SendMessage reads one queue attribute
   (ContentBasedDeduplication) through `Queue.attributes`, which first counts the queue's visible,
   in-flight and delayed messages by walking all of them: a send costs time in proportion to what
   the queue holds, and a queue nobody reads in a run (audit-svc's, when only some services run)
   makes every event sent to it slower than the last. While a send to a standard queue runs,
   `attributes` is empty (it has no such attribute); FIFO queues and GetQueueAttributes still count.

3. Per-request overhead that does not depend on the request. Profiled under the gateway bench's
   mixed run (cProfile per request, 2026-11-26), moto spent more time routing and logging a request
   than answering it:
   - `backends.list_of_moto_modules()` lists moto's package directory and stats each of its ~170
     entries on every request, inside the dispatcher's global lock, and `get_backend_for_host`
     then tries ~400 URL patterns: both depend only on the Host header, so the answer per host is
     kept (the package directory does not change while the server runs).
   - werkzeug logs every request to stderr (one colourised line each); moto's stderr is read only
     for start-up failures (deploy/local/moto.ts keeps its last 4 KB), so request lines are off and
     warnings and errors still go out.
   - `camelcase_to_underscores`, a pure function of an attribute or action name, is memoised.
   - ReceiveMessage checks each message's retention period through `get_queue_attributes`, which
     builds every attribute of the queue, counting its messages by walking all of them; the
     retention period is read from the queue directly.

On a 2-core machine each took CPU away from the services under test (bench/15-moto.bench.ts
measures this launcher against plain moto_server).
"""

import functools
import logging
import os
import sys
import threading

try:
    # Before moto's service modules are imported: they take the function by name.
    from moto.core import utils as _moto_utils

    _moto_utils.camelcase_to_underscores = functools.lru_cache(maxsize=4096)(_moto_utils.camelcase_to_underscores)
    for _name, _module in list(sys.modules.items()):
        if _name.startswith("moto.") and hasattr(_module, "camelcase_to_underscores"):
            _module.camelcase_to_underscores = _moto_utils.camelcase_to_underscores
except ImportError:
    pass

# Events then arrive in milliseconds, as EventBridge delivers them in production. Off only with
# FLOWSTATE_MOTO_FAST_EVENTS=0 (moto's own half second per event): until 2026-11-23 tests ran that
# way because privacy-svc's export builders deadlocked on fast delivery (fixed: ADR 0010).
if os.environ.get("FLOWSTATE_MOTO_FAST_EVENTS") != "0":
    try:
        import jsonpath_ng.ext

        jsonpath_ng.ext.parse = functools.lru_cache(maxsize=512)(jsonpath_ng.ext.parse)
    except ImportError:  # a moto without jsonpath-ng: nothing to fix
        pass

try:
    from moto.sqs import models as sqs

    _sending = threading.local()
    _counted_attributes = sqs.Queue.attributes.fget
    _send_message = sqs.SQSBackend.send_message

    def _attributes(queue):
        if getattr(_sending, "active", False) and not queue.fifo_queue:
            return {}  # SendMessage reads ContentBasedDeduplication, a FIFO queue's attribute only
        return _counted_attributes(queue)

    def _send(self, *args, **kwargs):
        _sending.active = True
        try:
            return _send_message(self, *args, **kwargs)
        finally:
            _sending.active = False

    sqs.Queue.attributes = property(_attributes)
    sqs.SQSBackend.send_message = _send
except (ImportError, AttributeError):  # another moto: left as it is
    pass

try:
    from moto.sqs import models as _sqs_models

    def _retained(self, queue_name, message):
        queue = self.get_queue(queue_name)
        return int(queue.message_retention_period) + message.sent_timestamp / 1000 > _moto_utils.unix_time()

    _sqs_models.SQSBackend.is_message_valid_based_on_retention_period = _retained
except (ImportError, AttributeError, NameError):
    pass

try:
    from moto import backends as _backends
    from moto.moto_server import werkzeug_app as _werkzeug_app

    _modules = tuple(_backends.list_of_moto_modules())
    _backends.list_of_moto_modules = lambda: _modules
    _backend_for_host = _werkzeug_app.DomainDispatcherApplication.get_backend_for_host
    _hosts = {}

    def _cached_backend_for_host(self, host):
        if host not in _hosts:
            _hosts[host] = _backend_for_host(self, host)
        return _hosts[host]

    _werkzeug_app.DomainDispatcherApplication.get_backend_for_host = _cached_backend_for_host
except (ImportError, AttributeError):
    pass

# Request lines off; werkzeug's warnings and errors (a port in use, a crash) still reach stderr.
logging.getLogger("werkzeug").setLevel(logging.WARNING)

from moto.server import main

if __name__ == "__main__":
    sys.argv[0] = "moto_server"
    sys.exit(main())
