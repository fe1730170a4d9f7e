"""
moto_server as installed, with costs that grow without bound or do not depend on the request taken
out. Each changes how long moto takes, never what it answers.

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

4. Each event matched against the bus's rules once (2026-11-27). moto's PutEvents builds, for every
   rule on the bus and every event, a deep copy of the event message, parses the event's detail
   again, and matches the rule's pattern through a JSON round trip; on Flowstate's bus (a rule per
   consumer, ten or so) that is ten times the work for the one rule that matches. The launcher
   builds and flattens the message once per event, keeps the rules whose pattern matches it, and
   lets moto's PutEvents deliver the event to those (one event at a time, so each call sees its
   own rules); the answer and what the targets receive are moto's own.

5. Connections kept open. werkzeug answers every request with `Connection: close` (its handler
   cannot tell whether the app read the whole body), so each AWS call paid for a new connection
   and moto for a new thread. The launcher reads a request's body before the app runs (the app
   reads that copy), so the connection stays at the next request's first line, and keeps it open;
   a chunked or `Expect: 100-continue` request still closes it. Nagle's algorithm is off on these
   connections (a response's head and body are separate writes: the body would otherwise wait for
   the client's delayed ACK, ~40 ms).

On a 2-core machine each took CPU away from the services under test (bench/15-moto.bench.ts
measures this launcher against plain moto_server).
"""

import copy
import functools
import io
import json
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

try:
    from moto.events import models as _events

    _for_event = threading.local()
    _describe_event_bus = _events.EventsBackend.describe_event_bus
    _put_events = _events.EventsBackend.put_events

    class _MatchingRules:
        """The bus as put_events sees it for one event: only the rules whose pattern matches it."""

        def __init__(self, rules):
            self.rules = rules

    def _bus_for_event(self, name):
        bus = _describe_event_bus(self, name)
        event, _for_event.event = getattr(_for_event, "event", None), None  # once: put_events' own look-up
        if event is None:
            return bus
        # The message every rule would get (as put_events builds it), built and flattened once.
        message = copy.deepcopy(_events._BASE_EVENT_MESSAGE)
        message.update(
            {
                "detail-type": event["DetailType"],
                "source": event["Source"],
                "account": self.account_id,
                "time": event.get("Time", _moto_utils.unix_time()),
                "region": self.region_name,
                "resources": event.get("Resources", []),
                "detail": json.loads(event["Detail"]),
                "ingestion-time": _moto_utils.unix_time(),
            }
        )
        flat = _events.EventPattern._flatten_dict(message)
        return _MatchingRules(
            {
                name: rule
                for name, rule in bus.rules.items()
                if not rule.event_pattern._pattern
                or rule.event_pattern._does_event_match(flat, rule.event_pattern._pattern)
            }
        )

    def _put_events_matching(self, events):
        if len(events) > 10:
            return _put_events(self, events)  # moto's own refusal
        entries = []
        for event in events:
            _for_event.event = event
            try:
                entries += _put_events(self, [event])
            finally:
                _for_event.event = None
        return entries

    _events.EventsBackend.describe_event_bus = _bus_for_event
    _events.EventsBackend.put_events = _put_events_matching
except (ImportError, AttributeError):
    pass

try:
    from werkzeug import serving as _serving

    class _KeepAliveHandler(_serving.WSGIRequestHandler):
        """Keeps the connection open after an answer once the request's body is read in full."""

        _keep_alive = False
        # A response's head and body go in separate writes: with Nagle's algorithm the body would
        # wait for the client's delayed ACK of the head (~40 ms) on a connection kept open.
        disable_nagle_algorithm = True

        def run_wsgi(self):
            length = self.headers.get("Content-Length")
            self._keep_alive = (
                "chunked" not in self.headers.get("Transfer-Encoding", "").lower()
                and self.headers.get("Expect", "").lower().strip() != "100-continue"
                and (length is None or length.isdigit())
            )
            if not self._keep_alive:
                return super().run_wsgi()
            # The body is read whole before the app runs, and the app reads that copy: what it
            # leaves unread cannot be taken for the next request's first line, and a read past
            # the body (a GET without Content-Length) ends at once rather than waiting on the socket.
            connection = self.rfile
            self.rfile = io.BytesIO(connection.read(int(length)) if length else b"")
            try:
                return super().run_wsgi()
            finally:
                self.rfile = connection

        def send_header(self, keyword, value):
            if self._keep_alive and keyword.lower() == "connection" and value.lower() == "close":
                return
            super().send_header(keyword, value)

    _serving.WSGIRequestHandler = _KeepAliveHandler
except (ImportError, AttributeError):
    pass

# Request lines off; werkzeug's warnings and errors (a port in use, a crash) still reach stderr.
logging.getLogger("werkzeug").setLevel(logging.WARNING)

from moto.server import main

if __name__ == "__main__":
    sys.argv[0] = "moto_server"
    sys.exit(main())
