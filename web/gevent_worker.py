"""gunicorn's gevent worker with a cap on each client's connections (``gunicorn.conf.py``'s
``worker_class``; the limits and their settings: ``web.client_limits``).

A connection is counted from the moment the worker hands it to its greenlet until it closes,
whatever it does meanwhile (an idle keep-alive connection, a request, a stream), per peer
address. Beyond ``client_connections(worker_connections)`` one client's next connection is
answered at once with ``429 Too Many Requests`` (the API's error shape, ``rate_limited`` /
``too_many_connections``, ``Retry-After``) and closed, before its request is read: it costs the
worker a few writes and reads, and never takes a place the others need. Behind trusted proxies
(``TOBAGO_TRUSTED_PROXIES``) every connection is a proxy's and nothing is counted.

The answer is written, the sending side shut, and what the client sent is read (for at most
``DRAIN_S``) before closing: a socket closed with unread bytes sends a reset, which can reach
the client before the answer it has not read yet and lose it.

**Fair turns on the loop.** A worker is one event loop that runs its greenlets in the order they
became ready, so a client that sends a thousand requests at once put a thousand pieces of work
ahead of anyone else's next request (issue 44: another client's reads waited hundreds of ms
during a burst of streams). Each client (peer address) has ``TURNS_PER_CLIENT`` turns
(``Turns``): a connection takes one of its client's turns before its first request is read,
and each later request on it takes one before the app is called; the turn is given back as
soon as the connection's greenlet yields the loop (a callback scheduled when the turn is
taken: callbacks run once the running greenlet has yielded). So a turn covers one run of work:
a request read and answered, or a stream's opening up to its first wait for news; a request
that waits (for bytes, a long-poll, the table, a lock) never holds up its client's others
meanwhile. A connection whose client's turns are all
taken waits, parked, in its client's queue, and is handed the next turn given back (first
come, first served within a client) at the loop's next iteration, once the loop has polled its
sockets (``Turns.hand_on``): a busy client does at most its turns' pieces of work between two
polls, and the connections accepted and requests read at that poll run before its next ones.
Handed on at once (a callback in the same pass), a burst's queued stream openings (about
0.7 ms of CPU each) ran dozens back to back before the loop looked at its sockets again.
Another client's request has its own turns: it waits behind at most the few pieces of work the
busy clients hold turns for, not behind their whole queue. To reach the loop at all a new
connection must be accepted, so the worker takes up to ``ACCEPT_BATCH`` connections from the
listening socket at each wake-up (gunicorn takes one, to share a socket among workers; with
``reuse_port`` each worker has its own): a burst's connections are parked cheaply and a fresh
connection of another client is not left behind them in the listen queue. (It still waits for
the busy client's connections ahead of it in that queue to be accepted and parked, and for the
worker to be given a CPU: on a loaded machine most of a slow new connection's time.) Behind
trusted proxies every connection is a proxy's and no turns are counted (a proxy is one peer
for many clients).
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import orjson
from gevent import get_hub
from gevent.hub import Waiter
from gevent.server import StreamServer
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

if TYPE_CHECKING:
    from web.stream_guard import StreamGuard

#: How long a refused connection's request is read before it is closed (seconds).
DRAIN_S = 1.0
#: The requests of one client a worker works on at once (module doc).
TURNS_PER_CLIENT = 2
#: The connections a worker accepts at once when its listening socket wakes it.
ACCEPT_BATCH = 100
#: libev's lowest watcher priority: the timer that hands turns on fires after the sockets.
MIN_PRIORITY = -2


def refusal(limit: int, retry_after_s: float) -> bytes:
    """The whole answer to a connection over its client's cap."""
    body = orjson.dumps(
        {
            "error": {
                "code": "rate_limited",
                "reason": "too_many_connections",
                "message": f"too many open connections from your address: at most {limit} to "
                "each server process; close some or try again later",
                "field": None,
                "params": {"limit": limit, "retry_after": retry_after_s},
            }
        }
    )
    head = (
        "HTTP/1.1 429 Too Many Requests\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"Retry-After: {round(retry_after_s)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def refuse(client: socket.socket, answer: bytes) -> None:
    """Send ``answer``, read what the client sends for at most ``DRAIN_S``, close (module doc)."""
    try:
        client.settimeout(DRAIN_S)
        client.sendall(answer)
        client.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + DRAIN_S
        while time.monotonic() < deadline and client.recv(65536):
            pass
    except OSError:  # gone, or silent past the drain: closed all the same
        pass
    finally:
        client.close()


class Turns:
    """Each client's turns on this worker's loop (module doc): at most ``per_client`` held at
    once per client, the connections waiting for one queued per client."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self.busy: dict[str, int] = {}
        self.queued: dict[str, deque[Waiter]] = {}
        self.handed: list[Waiter] = []  # turns handed on, run at the next iteration
        self.next_iteration: Any = None  # the loop's timer that runs them (made when needed)

    def hand_on(self, waiter: Waiter) -> None:
        """Wake ``waiter``, handed a turn, once the loop has polled its sockets again: a zero
        timer of the lowest priority fires after that poll's ready sockets (a new connection
        accepted, a kept-alive connection's next request) have been served, and their greenlets
        are queued to run before it. Woken at once (a callback, run in the same pass of the
        loop's callbacks), a busy client's queued work ran back to back, dozens of stream
        openings before the loop looked at its sockets again (module doc)."""
        self.handed.append(waiter)
        timer = self.next_iteration
        if timer is None:
            timer = self.next_iteration = get_hub().loop.timer(0.0, priority=MIN_PRIORITY)
        if not timer.active:
            timer.start(self.run_handed)

    def run_handed(self) -> None:
        """The turns handed on since the last iteration: each connection's greenlet queued to
        run (after those the iteration's sockets woke), in the order they were handed."""
        handed, self.handed = self.handed, []
        loop = get_hub().loop
        for waiter in handed:
            loop.run_callback(waiter.switch, None)

    def take(self, who: str) -> None:
        """Take one of ``who``'s turns, waiting (this greenlet parked) until one is free."""
        n = self.busy.get(who, 0)
        if n < self.per_client:
            self.busy[who] = n + 1
            return
        waiter = Waiter()
        queue = self.queued.setdefault(who, deque())
        queue.append(waiter)
        try:
            waiter.get()  # handed a turn by ``give``
        except BaseException:  # killed while waiting (the worker is leaving)
            if waiter in queue:
                queue.remove(waiter)
                if not queue:
                    del self.queued[who]
            else:  # handed the turn meanwhile: passed on
                self.give(who)
            raise

    def give(self, who: str) -> None:
        """Give back one of ``who``'s turns: to the first connection waiting for one, if any,
        at the loop's next iteration (``hand_on``)."""
        queue = self.queued.get(who)
        if queue:
            waiter = queue.popleft()
            if not queue:
                del self.queued[who]
            self.hand_on(waiter)
            return
        n = self.busy[who] - 1
        if n > 0:
            self.busy[who] = n
        else:
            del self.busy[who]


class Turn:
    """One connection's hold on one of its client's turns: taken by ``take`` (a no-op when
    held) and given back as soon as the connection's greenlet yields the loop (it waits: for
    bytes, for a stream's news, for a long-poll, the table or a lock), so a turn is one run of
    the greenlet's work, not its waits (module doc)."""

    __slots__ = ("held", "turns", "who")

    def __init__(self, turns: Turns, who: str) -> None:
        self.turns, self.who = turns, who
        self.held = False

    def take(self) -> None:
        if self.held:
            return
        self.turns.take(self.who)
        self.held = True
        # a callback runs on the loop, so once this greenlet has yielded it
        get_hub().loop.run_callback(self.give)

    def give(self) -> None:
        if self.held:
            self.held = False
            self.turns.give(self.who)


class PromptServer(StreamServer):
    """gevent's server, taking up to ``ACCEPT_BATCH`` connections at each wake-up whatever
    gunicorn sets (module doc)."""

    @property
    def max_accept(self) -> int:
        return ACCEPT_BATCH

    @max_accept.setter
    def max_accept(self, _value: int) -> None:
        pass  # (gunicorn sets 1 for a listening socket shared by workers; ours is not shared)


WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ClientLimitedWorker(GeventWorker):
    """gunicorn's gevent worker, with each client's connections counted and capped, and each
    client's requests taking turns on the loop."""

    wsgi: WsgiApp  # (gunicorn's ``load_wsgi`` sets it: the app)

    def run(self) -> None:
        # (here, not at import: the worker has patched threading by now, so the lock is gevent's)
        from web.client_limits import RETRY_AFTER_S, Counts, client_connections
        from web.config import from_environment

        limit = client_connections(self.worker_connections)
        self.trusted = from_environment("TRUSTED_PROXIES") > 0
        self.connections = Counts(limit)
        self.refusal = refusal(limit, RETRY_AFTER_S)
        extensions = getattr(self.wsgi, "extensions", {})  # (the Flask app's)
        self.guard: StreamGuard | None = None if self.trusted else extensions.get("stream_guard")
        self.turns = Turns(TURNS_PER_CLIENT)
        self.turn_of: dict[int, Turn] = {}  # id of a connection's socket → its turn
        self.app_behind: WsgiApp = self.wsgi
        self.wsgi = self.in_turn
        # the server ``GeventWorker.run`` makes: one that accepts promptly (module doc)
        ggevent.StreamServer = PromptServer
        super().run()

    def handle_request(self, listener_name: Any, req: Any, sock: socket.socket, addr: Any) -> None:
        """A stream or long-poll over its client's cap is answered here, before gunicorn
        builds its environment and response (``web.stream_guard``: the same answer); every
        other request as gunicorn does."""
        guard = self.guard
        if (
            guard is not None
            and isinstance(addr, tuple)
            and guard.over_cap(req.method, req.path, req.query, addr[0])
        ):
            close = req.should_close()
            sock.sendall(guard.raw_refusal(close))
            if close:
                raise StopIteration  # (gunicorn's loop closes the connection on it)
            return
        super().handle_request(listener_name, req, sock, addr)

    def in_turn(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        """The app, called in one of the client's turns (module doc)."""
        turn = self.turn_of.get(id(environ.get("gunicorn.socket")))
        if turn is None:
            return self.app_behind(environ, start_response)
        turn.take()  # (given back when this greenlet first yields: a stream's start is in it)
        return self.app_behind(environ, start_response)

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        who = addr[0] if isinstance(addr, tuple) and not self.trusted else None
        if who is None:  # a Unix socket, or behind trusted proxies: not counted
            super().handle(listener, client, addr)
            return
        if not self.connections.take(who):
            refuse(client, self.refusal)
            return
        turn = self.turn_of[id(client)] = Turn(self.turns, who)
        try:
            turn.take()  # (the first request is read in it)
            super().handle(listener, client, addr)
        finally:
            turn.give()
            del self.turn_of[id(client)]
            self.connections.give(who)
