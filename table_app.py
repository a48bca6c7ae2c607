"""The table's process under gunicorn (the entry point ``gunicorn.conf.py`` names, beside
``app.py``): a gunicorn "dirty" worker (a process pool gunicorn starts,
watches and restarts beside the HTTP workers, for work that would block them) that runs the
table runner (``web.service.table``) and the review's analyses, so that no bot or analysis ever
runs Python on an HTTP worker's event loop.

``gunicorn.conf.py`` names it (``dirty_apps``) with ``dirty_workers`` processes per server
(``TOBAGO_TABLE_PROCESSES``, default 1). Each builds the app the server serves (the factory
gunicorn was given, ``TOBAGO_APP``: ``gunicorn.conf.py`` passes it on) with ``TABLE_RUNNER``
on, so its runner thread settles due deadlines and plays due bots of every game in the database: several
such processes, on one server or many, share the work through the games' leases. A runner that
dies (``kill -9``) loses nothing: gunicorn starts another, and its lease lets any runner take
its game over. The HTTP workers send it analyses (``analyse``) through gunicorn's dirty client
(``web.review``); it computes them in its own threads and stores their progress as it goes.
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn import util
from gunicorn.dirty import DirtyApp

from web.review import init_reviews


class TableApp(DirtyApp):
    """The app of the table's process (module doc)."""

    def init(self) -> None:
        """In the dirty worker, after gunicorn's fork: the server's app, with the table's
        runner (this process runs the table: ``TOBAGO_TABLE_RUNNER``)."""
        os.environ["TOBAGO_TABLE_RUNNER"] = "1"
        self.app: Any = util.import_app(os.environ.get("TOBAGO_APP", "app:create_app()"))

    def analyse(self, game_id: str) -> bool:
        """Compute and store a finished game's analysis (``web.review.Reviews.run``)."""
        with self.app.app_context():
            found = self.app.extensions.get("reviews")
            if found is None:
                found = init_reviews(self.app, self.app.extensions["game_sessions"])
            found.run(game_id)
        return True

    def close(self) -> None:
        self.app.extensions["game_sessions"].stop_runner()
