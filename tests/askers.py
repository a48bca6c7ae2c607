"""Clients that keep asking a server while something happens to it (an outage, a restart): for
tests and benches. ``Askers(url, paths)`` is a context manager: a thread per path asks it over
and over (50 ms apart) and keeps each answer in ``log`` as ``Answer``."""

from __future__ import annotations

import threading
import time
from typing import NamedTuple

import requests


class Answer(NamedTuple):
    path: str
    sent: float  # time.monotonic() when the request was sent
    seconds: float  # until its answer (or its failure)
    status: int | None  # None: no answer (the connection failed or timed out)
    retry_after: str | None
    reason: str | None  # the error's reason, for a 4xx/5xx


class Askers:
    """Threads asking ``paths`` over and over until the block ends (see the module doc)."""

    def __init__(self, url: str, paths: list[str]) -> None:
        self.url = url
        self.log: list[Answer] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._ask, args=(p,)) for p in paths]

    def _ask(self, path: str) -> None:
        session = requests.Session()
        while not self._stop.is_set():
            sent = time.monotonic()
            try:
                resp = session.get(self.url + path, timeout=15)
            except requests.RequestException as e:
                self.log.append(Answer(path, sent, time.monotonic() - sent, None, None, repr(e)))
                continue
            took = time.monotonic() - sent
            reason = None
            if resp.status_code >= 400:
                try:
                    reason = resp.json()["error"]["reason"]
                except (ValueError, KeyError, TypeError):
                    reason = resp.text[:200]
            self.log.append(
                Answer(path, sent, took, resp.status_code, resp.headers.get("Retry-After"), reason)
            )
            time.sleep(0.05)

    def __enter__(self) -> Askers:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(30)
