"""The order of work on a gevent worker's loop while one client is busy (issue 44, item 4;
``web/gevent_worker.py``'s ``Turns``).

A busy client's queued work (connections parked for one of its turns) is handed a turn at the
loop's next iteration, after the sockets that iteration polled: another client's new connection
or next request is served before the busy client's next piece of work, not after all of it.
Run on gevent's loop in this process (no monkey patching needed: the sockets are gevent's);
orders are asserted, never timings.
"""

from __future__ import annotations

import gevent
from gevent import socket
from gevent.server import StreamServer

from web.gevent_worker import Turn, Turns

#: The busy client's pieces of work, queued at once.
PIECES = 6


def _busy_client(turns: Turns, order: list[str]) -> list[gevent.Greenlet]:
    """``PIECES`` greenlets of one client, each a piece of work in one of its turns (taken,
    recorded, then given back when the greenlet ends: ``Turn``)."""

    def piece(i: int) -> None:
        Turn(turns, "busy").take()
        order.append(f"busy {i}")

    return [gevent.spawn(piece, i) for i in range(PIECES)]


def test_a_ready_socket_is_served_before_a_busy_clients_queued_work():
    turns = Turns(1)
    order: list[str] = []
    mine, theirs = socket.socketpair()
    theirs.sendall(b"GET")  # another client's request, waiting in its socket

    def other() -> None:
        socket.wait_read(mine.fileno())
        order.append("other")

    greenlets = [gevent.spawn(other), *_busy_client(turns, order)]
    gevent.joinall(greenlets, timeout=10, raise_error=True)
    # one piece in the client's one turn ran before the loop polled; the others waited
    assert order == ["busy 0", "other", *(f"busy {i}" for i in range(1, PIECES))]
    assert turns.busy == {} and turns.queued == {} and turns.handed == []
    mine.close()
    theirs.close()


def test_a_new_connection_is_handled_before_a_busy_clients_queued_work():
    turns = Turns(2)
    order: list[str] = []

    def handle(sock: socket.socket, _addr: object) -> None:
        order.append("accepted")
        sock.close()

    server = StreamServer(("127.0.0.1", 0), handle)
    server.start()
    try:
        client = socket.create_connection(("127.0.0.1", server.server_port), timeout=10)
        greenlets = _busy_client(turns, order)
        gevent.joinall(greenlets, timeout=10, raise_error=True)
        deadline = gevent.Timeout(10)
        with deadline:
            while "accepted" not in order:
                gevent.sleep(0.01)
        # the client's two turns' pieces ran, then the loop polled: the connection came first
        assert order.index("accepted") == 2
        assert order.count("accepted") == 1 and len(order) == PIECES + 1
        client.close()
    finally:
        server.stop()


def test_a_waiter_handed_a_turn_and_killed_passes_it_on():
    turns = Turns(1)
    order: list[str] = []

    def piece(name: str) -> None:
        Turn(turns, "busy").take()
        order.append(name)

    first, second, third = (gevent.spawn(piece, name) for name in ("first", "second", "third"))
    first.join(10)  # its turn given back and handed to the second, not woken yet
    assert turns.handed and order == ["first"]
    second.kill()  # killed before its wake-up: the turn goes on to the third
    third.join(10)
    assert order == ["first", "third"]
    assert turns.busy == {} and turns.queued == {}
