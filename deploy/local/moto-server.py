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

On a 2-core machine either took a core away from the services under test (bench/15-moto.bench.ts
measures this launcher against plain moto_server).
"""

import functools
import os
import sys
import threading

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

from moto.server import main

if __name__ == "__main__":
    sys.argv[0] = "moto_server"
    sys.exit(main())
