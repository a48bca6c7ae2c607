"""Many Server-Sent Events followers from one asyncio loop over raw sockets, for tests and
``bench/live_bench.py``: a follower is a connection, a small parser and a dict, so one process
holds thousands of them without being the bottleneck.

``Follower(host, port, game_id)`` opens ``GET /api/games/<id>/stream`` (HTTP/1.1, as a
browser's ``EventSource`` does: the answer comes chunked), then records when each log version
arrived (``arrived``: version → ``time.monotonic()``), when each table chat line arrived
(``heard``: its number → ``time.monotonic()``, the lines in ``lines``), the ``end`` event, and
whether the ``retry`` line came (``connected``: the server holds the stream). ``headers`` adds request
headers (``Last-Event-ID``). With ``retries``, a refusal (a 503 while the server is swamped) or a
failed connection before the stream is held is tried again after 3 to 6 s, as a game page does
(``static/common/gameclient.js``); ``tries`` counts the attempts. ``source``: the loopback address
the connection comes from (``page_address(i)``: a client of its own per page, as real pages are;
the server counts each client's streams, ``web.client_limits``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time


def page_address(i: int) -> str:
    """The ``i``-th page's own loopback address (``127.1.0.1`` on; all of ``127/8`` is this
    machine)."""
    return f"127.1.{i // 250 % 250}.{i % 250 + 1}"


class Follower:
    """One stream of one game, read as it comes (see the module doc)."""

    def __init__(
        self,
        host: str,
        port: int,
        game_id: str,
        after: int = 0,
        headers: dict[str, str] | None = None,
        retries: int = 0,
        chat_after: int = 0,
        source: str | None = None,
    ) -> None:
        self.host, self.port, self.game_id, self.after = host, port, game_id, after
        self.source = source
        self.chat_after = chat_after
        self.headers = dict(headers or {})
        self.retries = retries
        self.tries = 0
        self.status = 0
        self.connected = asyncio.Event()
        self.arrived: dict[int, float] = {}
        self.entries: list[dict] = []
        self.heard: dict[int, float] = {}
        self.lines: list[dict] = []
        self.ended: int | None = None
        self.error: str | None = None
        self.done = False  # the stream is over (ended, closed or failed)
        self._changed = asyncio.Event()
        self._writer: asyncio.StreamWriter | None = None
        self._closed = False

    async def run(self) -> None:
        """Connect and read until the stream ends, the server closes or ``close()`` (trying
        again, up to ``retries`` times, while it is refused)."""
        while True:
            self.tries += 1
            await self._once()
            if self.connected.is_set() or self.tries > self.retries or self._closed:
                break
            await asyncio.sleep(3 + 3 * random.random())
        self.done = True
        self._changed.set()

    async def _once(self) -> None:
        self.error = None
        try:
            local = None if self.source is None else (self.source, 0)
            reader, self._writer = await asyncio.open_connection(
                self.host, self.port, local_addr=local
            )
            extra = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
            path = f"/api/games/{self.game_id}/stream?after={self.after}"
            if self.chat_after:
                path += f"&chat_after={self.chat_after}"
            request = (
                f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n"
                f"{extra}\r\n"
            )
            self._writer.write(request.encode())
            head = await reader.readuntil(b"\r\n\r\n")
            self.status = int(head.split(b" ", 2)[1])
            chunked = b"transfer-encoding: chunked" in head.lower()
            if self.status != 200:
                return
            await self._read_body(reader, chunked)
        except (OSError, asyncio.IncompleteReadError) as e:
            self.error = repr(e)
        except asyncio.CancelledError:
            self._closed = True
        finally:
            if self._writer is not None:
                self._writer.close()
                self._writer = None

    async def _read_body(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        text = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    return
                data = await reader.readexactly(size + 2)
                text += data[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    return
                text += data
            while b"\n\n" in text:
                block, text = text.split(b"\n\n", 1)
                self._event(block.decode())
                if self.ended is not None:
                    return

    def _event(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):  # a heartbeat comment
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "retry" in fields:
            self.connected.set()
        kind = fields.get("event")
        if kind == "end":
            self.ended = json.loads(fields["data"])["version"]
        elif kind == "chat":
            line = json.loads(fields["data"])
            assert fields["id"].endswith(f":{line['n']}")
            self.lines.append(line)
            self.heard[line["n"]] = time.monotonic()
        elif kind is None and "data" in fields:
            entry = json.loads(fields["data"])
            assert int(fields["id"].partition(":")[0]) == entry["version"]
            self.entries.append(entry)
            self.arrived[entry["version"]] = time.monotonic()
        self._changed.set()

    async def until(self, version: int, timeout: float) -> bool:
        """Wait until version ``version`` arrived (True) or ``timeout`` seconds passed."""
        return await self._until(self.arrived, version, timeout)

    async def until_line(self, n: int, timeout: float) -> bool:
        """Wait until chat line ``n`` arrived (True) or ``timeout`` seconds passed."""
        return await self._until(self.heard, n, timeout)

    async def _until(self, seen: dict[int, float], key: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while key not in seen:
            left = deadline - time.monotonic()
            if left <= 0 or self.done:
                return key in seen
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return key in seen
        return True

    def close(self) -> None:
        self._closed = True
        if self._writer is not None:
            self._writer.close()
            self._writer = None
