"""Reviewing finished games: positions per step and analyses, over the app's game store.

``Reviews`` is the service behind the review API (``web.review_api``) and pages
(``web.review_pages``), one per app (``init_reviews``), for every registered game kind:

- **Positions.** A finished game's log never changes, so each game's ``games.review.Positions``
  (checkpoints from one replay) is kept in a cache bounded by memory (``POSITIONS_BYTES``), and
  each answer (step, seat, language) in another (``ANSWERS_BYTES``), as JSON text: a warm
  server answers a step from memory. A running game is refused (409,
  reason ``game_running``): its positions would tell what the seats do not know yet.
- **The answer** for a seat is built from that seat's view at that step only: the view, its
  legal actions when it was to act, the game's helper from that view, its expected value, and
  the step's public events (plus the action itself only when it was that seat's). Without a
  seat it is the full view (everything any seat knew) with the helper of the seat to act.
- **Analyses** (``games.analysis.analyse``) run one at a time in the order asked, off the
  request path: in a background thread of this process, or, under gunicorn, in the table's
  process (``table_app.py``: a gunicorn dirty worker, asked through gunicorn's dirty client, so
  no analysis runs Python on an HTTP worker's event loop). Progress is written to the store
  every ``SAVE_EVERY_S`` seconds (and kept in memory when it runs here), the result once. A stored result of the current ``ANALYSIS_VERSION`` is served as
  it is (an analysis is reproducible, so it is computed once). Another worker's running
  analysis is reported with its stored progress unless it has not moved for ``STALE_S``
  seconds; then this worker takes the job over.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app
from gunicorn.dirty import get_dirty_client

from errors import IllegalAction, NotFound
from games.analysis import ANALYSIS_VERSION, analyse
from games.review import GameLog, Positions, check_step
from hexmap.sized_cache import SizedCache
from web.game_site import site_of
from web.service.sessions import GameSessions
from web.storage import AnalysisRecord, GameRecord

log = logging.getLogger(__name__)

#: Memory for the kept games' positions (``Positions.nbytes``), and for the answers' texts.
POSITIONS_BYTES = 32 * 1024 * 1024
ANSWERS_BYTES = 16 * 1024 * 1024
#: A running analysis writes its progress this often; another worker's running analysis that
#: has not moved for ``STALE_S`` is taken over.
SAVE_EVERY_S = 0.5
STALE_S = 60.0
#: The table's process as gunicorn's dirty client names it (``table_app.py``), and how long an
#: HTTP worker waits for it to finish one analysis.
TABLE_APP = "table_app:TableApp"
TABLE_WAIT_S = 3600.0


def game_log(sessions: GameSessions, game: GameRecord) -> GameLog:
    """The log of a stored game, as ``games.review`` replays it."""
    actions = [(a.seat, a.action) for a in sessions.store.actions(game.id)]
    return GameLog.of(game.kind, game.seed, len(game.seats), game.options, actions)


class Reviews:
    """Positions and analyses of finished games (see the module doc)."""

    def __init__(
        self,
        sessions: GameSessions,
        background: bool = True,
        elsewhere: Callable[[str], None] | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock: Callable[[], float] = sessions.clock
        self.background = background
        #: Runs one analysis in another process and returns when it is stored (``None``: here).
        self.elsewhere = elsewhere
        self._positions: SizedCache[Positions] = SizedCache("review-positions", POSITIONS_BYTES)
        self._answers: SizedCache[str] = SizedCache("review-answers", ANSWERS_BYTES)
        self._build_lock = threading.Lock()
        #: game id → [done, total] of the analyses this process runs or has queued.
        self._jobs: dict[str, list[int]] = {}
        self._jobs_lock = threading.Lock()
        self._queue: queue.Queue[str] = queue.Queue()
        self._worker: threading.Thread | None = None

    # --- positions ------------------------------------------------------------------------

    def finished(self, game_id: str) -> GameRecord:
        """The game's row; 404 for no such game, 409 while it runs, and 409 ``rules_changed``
        for a game stored under earlier rules (its replay by the sessions departs from its log:
        ``web.service.replay``), which the review would replay into another game."""
        game = self.sessions.store.get(game_id)
        if not game.over:
            raise IllegalAction(
                "a game can be reviewed once it is over",
                "id",
                reason="game_running",
            )
        self.sessions.state_of(game)
        return game

    def positions(self, game: GameRecord) -> Positions:
        found = self._positions.get(game.id)
        if found is None:
            with self._build_lock:  # one replay per game, however many ask at once
                found = self._positions.get(game.id)
                if found is None:
                    log_ = game_log(self.sessions, game)
                    built = Positions(log_, full_view=site_of(game.kind).full_view)
                    found = self._positions.put(game.id, built, built.nbytes())
        return found

    def position(self, game_id: str, step: int, seat: int | None, lang: str) -> dict:
        """The answer for ``seat`` (``None``: everything) at ``step`` (module doc)."""
        game = self.finished(game_id)
        self._check_seat(game, seat)
        check_step(step, game.version)
        return json.loads(self.position_json(game, step, seat, lang))

    def position_json(self, game: GameRecord, step: int, seat: int | None, lang: str) -> str:
        """The answer as JSON text, cached as text (a cache of dicts would give the garbage
        collector hundreds of thousands of objects to walk: long pauses)."""
        key = (game.id, step, seat, lang)
        found = self._answers.get(key)
        if found is None:
            answer = self._answer(game, step, seat, lang)
            text = json.dumps(answer, separators=(",", ":"))
            found = self._answers.put(key, text, 100 + len(text))
        return found

    def position_text(self, game_id: str, step: int, seat: int | None, lang: str) -> str:
        """``position`` as JSON text (what the API sends)."""
        game = self.finished(game_id)
        self._check_seat(game, seat)
        check_step(step, game.version)
        return self.position_json(game, step, seat, lang)

    @staticmethod
    def _check_seat(game: GameRecord, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(game.seats):
            raise NotFound(
                f"no seat {seat} in a {len(game.seats)}-seat game",
                "seat",
                reason="no_such_seat",
                params={"seats": len(game.seats)},
            )

    def _answer(self, game: GameRecord, step: int, seat: int | None, lang: str) -> dict:
        positions = self.positions(game)
        kind = positions.kind
        site = site_of(kind.name)
        analyst = site.analyst
        view = positions.view(step, seat)
        to_act = positions.to_act(step)
        helper_seat = seat if seat is not None else (to_act[0] if to_act else None)
        legal = (
            positions.legal(step, helper_seat)
            if helper_seat is not None and helper_seat in to_act
            else []
        )
        helper = None
        expected: list[float | None] = [None] * len(game.seats)
        if analyst is not None:
            state = positions.state(step)
            if helper_seat is not None:
                own = view if seat is not None else kind.view(state, helper_seat)
                helper = analyst.helper(own, legal)
                if helper is not None and site.helper_words is not None:
                    helper = site.helper_words(helper, lang)
            for s in range(len(game.seats)) if seat is None else [seat]:
                own = view if seat is not None else kind.view(state, s)
                expected[s] = analyst.expected(own)
        move = None
        if step > 0:
            entry = self.sessions.store.actions(game.id, after=step - 1, upto=step)[0]
            move = {
                "version": step,
                "seat": entry.seat,
                "events": entry.events,
                "action": entry.action if seat is None or entry.seat == seat else None,
            }
        return {
            "id": game.id,
            "game": game.kind,
            "step": step,
            "steps": positions.steps,
            "seat": seat,
            "to_act": to_act,
            "view": view,
            "helper_seat": helper_seat,
            "legal_actions": legal,
            "helper": helper,
            "expected": expected,
            "move": move,
        }

    # --- analyses -------------------------------------------------------------------------

    def analysis(self, game_id: str) -> dict:
        """The game's analysis: its status and progress, and the result once done. Asking
        starts it when nothing (of the current version) is stored or running."""
        game = self.finished(game_id)
        out: dict[str, Any] = {"id": game.id, "game": game.kind, "version": ANALYSIS_VERSION}
        if site_of(game.kind).analyst is None:
            return {**out, "status": "unavailable", "progress": None, "analysis": None}
        with self._jobs_lock:
            job = self._jobs.get(game_id)
            if job is not None and self.elsewhere is None:  # (elsewhere: the stored progress)
                return {**out, "status": "running", "progress": _progress(*job), "analysis": None}
        stored = self.sessions.store.analysis(game_id)
        if stored is not None and stored.version == ANALYSIS_VERSION:
            if stored.status == "done":
                return {
                    **out,
                    "status": "done",
                    "progress": _progress(stored.total, stored.total),
                    "analysis": stored.result,
                }
            if stored.status == "failed":
                return {**out, "status": "failed", "progress": None, "analysis": None}
            if self.clock() - stored.updated < STALE_S:
                progress = _progress(stored.done, stored.total)
                return {**out, "status": "running", "progress": progress, "analysis": None}
        self._start(game)
        if not self.background:  # computed already, in this request
            return self.analysis(game_id)
        return {
            **out,
            "status": "running",
            "progress": _progress(0, game.version),
            "analysis": None,
        }

    def _start(self, game: GameRecord) -> None:
        with self._jobs_lock:
            if game.id in self._jobs:
                return
            self._jobs[game.id] = [0, game.version]
        self._save(game.id, "running", 0, game.version)
        if not self.background:
            self.run(game.id)
            return
        self._queue.put(game.id)
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="analyses", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        while True:
            game_id = self._queue.get()
            try:
                if self.elsewhere is None:
                    self.run(game_id)
                else:
                    self._run_elsewhere(game_id)
            finally:
                self._queue.task_done()

    def _run_elsewhere(self, game_id: str) -> None:
        """One analysis in the table's process; a failure there leaves the stored record
        running, and a request after ``STALE_S`` starts it again."""
        assert self.elsewhere is not None
        try:
            self.elsewhere(game_id)
        except Exception:
            log.exception("the table's process could not analyse %s", game_id)
        finally:
            with self._jobs_lock:
                self._jobs.pop(game_id, None)

    def wait_idle(self) -> None:
        """Block until every queued analysis of this process is done (tests, tools)."""
        self._queue.join()

    def run(self, game_id: str) -> None:
        """Compute and store one game's analysis (progress saved as it goes)."""
        last_save = [time.monotonic()]
        try:
            game = self.sessions.store.get(game_id)
            game_log_ = game_log(self.sessions, game)
            analyst = site_of(game.kind).analyst
            if analyst is None:
                raise LookupError(f"no analysis for {game.kind}")

            def progress(done: int, total: int) -> None:
                with self._jobs_lock:
                    self._jobs[game_id] = [done, total]
                if time.monotonic() - last_save[0] >= SAVE_EVERY_S:
                    last_save[0] = time.monotonic()
                    self._save(game_id, "running", done, total)

            result = analyse(game_log_, analyst, progress)
            self._save(game_id, "done", game.version, game.version, result=result)
        except Exception as e:  # stored as failed (and logged), never a stuck "running"
            log.exception("analysis of %s failed", game_id)
            self._save(game_id, "failed", 0, 0, error=repr(e))
        finally:
            with self._jobs_lock:
                self._jobs.pop(game_id, None)

    def _save(
        self,
        game_id: str,
        status: str,
        done: int,
        total: int,
        result: dict | None = None,
        error: str | None = None,
    ) -> None:
        record = AnalysisRecord(
            game_id, ANALYSIS_VERSION, status, done, total, result, error, self.clock()
        )
        self.sessions.store.save_analysis(record)

    def stored_analysis(self, game_id: str) -> dict | None:
        """The finished game's stored analysis result, or ``None`` when not done yet."""
        game = self.finished(game_id)
        stored = self.sessions.store.analysis(game.id)
        if stored is None or stored.version != ANALYSIS_VERSION or stored.status != "done":
            return None
        return stored.result


def _progress(done: int, total: int) -> dict[str, int]:
    return {"done": done, "total": total}


def init_reviews(app: Flask, sessions: GameSessions) -> Reviews:
    """The app's review service (``REVIEW_BACKGROUND``: analyses in the background, default
    on). A gunicorn HTTP worker whose server has a table process (gunicorn's dirty socket is
    set, and the table does not run here) sends its analyses there."""
    elsewhere = None
    if os.environ.get("GUNICORN_DIRTY_SOCKET") and not app.config.get("TABLE_RUNNER"):
        elsewhere = _analyse_in_table
    background = app.config.get("REVIEW_BACKGROUND", True)
    found = Reviews(sessions, background=background, elsewhere=elsewhere)
    app.extensions["reviews"] = found
    return found


def _analyse_in_table(game_id: str) -> None:
    """Ask the table's process (gunicorn's dirty client) to analyse a game; returns when done."""
    get_dirty_client(timeout=TABLE_WAIT_S).execute(TABLE_APP, "analyse", game_id)


_INIT_LOCK = threading.Lock()


def reviews() -> Reviews:
    """The current app's review service, over its game sessions (made on first use)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    found = app.extensions.get("reviews")
    if found is None:
        from web.games_api import sessions

        with _INIT_LOCK:
            found = app.extensions.get("reviews") or init_reviews(app, sessions())
    return found
