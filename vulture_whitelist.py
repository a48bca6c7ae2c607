"""Uses the dead-code check (vulture, ``make lint``) cannot see: names read by a library, a
template or a string. Never run; vulture reads it beside the code (``[tool.vulture]`` in
pyproject.toml ignores whole kinds of use: Flask's routes and hooks, pydantic's validators,
pytest's fixtures, marks and hooks). An entry says who reads the name."""

import sqlite3

from games.order import by_ranking
from table_app import TableApp
from tests import test_table_stalls, test_thinkers, testgame
from web.game_site import GamePage, GameSite
from web.gevent_worker import ClientLimitedWorker
from web.review_api import DecisionOut, SeatSummaryOut
from web.schemas_accounts import BoardRowOut, LeaderboardOut, RatingOut, RunningGameOut
from web.schemas_games import GameStateOut, KindOut, OptionOut
from web.schemas_lobby import ClockOut, TimeControlIn
from web.schemas_puzzles import CheckOut, ProofOut, PuzzleOut
from web.tobago_pages import HelperOut


class _Names:
    """``_.name``: a name that is not an attribute of anything importable."""

    def __getattr__(self, name: str) -> None:
        return None


_ = _Names()

# gunicorn.conf.py: gunicorn reads its settings and calls its hooks by name.
_.worker_connections
_.reuse_port
_.keepalive
_.dirty_apps
_.dirty_timeout
_.on_starting
_.pre_request
_.worker_exit
_.post_worker_init
_.dirty_worker_init
_.dirty_post_fork
_.proc_name  # the arbiter's process title, set by on_starting
# gunicorn's dirty worker builds the table's process from "table_app:TableApp" (dirty_apps).
TableApp
TableApp.init
# tests/servers.py names the test game's app factory in a string, as gunicorn's app URI.
testgame.create_app_with_testgame
test_thinkers.app_with_long_tick  # the app its gunicorn server serves, by name
test_table_stalls.create_app_without_runner
_.create_counting_app  # tests/counting_app.py, named the same way (test_client_limits_fair.py)
# sqlite3 reads a connection's row factory (web/storage/sqlite.py).
sqlite3.Connection.row_factory
# Templates read a game's descriptor: home.html its "featured", join.html its page class.
GameSite.featured
GameSite.page_class
# templates/game_page.html reads the game page's slowest replay pace.
GamePage.slow_ms
# Response models' fields: they describe answers built as dicts (by games.analysis,
# games.base.metadata, web.puzzles_api, web.tobago_pages) in the OpenAPI document.
DecisionOut.best_value
SeatSummaryOut.best_share
SeatSummaryOut.average_loss
OptionOut.description_zh
OptionOut.maximum
KindOut.title_zh
GameStateOut.table_due  # web.service.sessions builds the state
CheckOut.correct
ProofOut.refuted_sizes
PuzzleOut.intro
PuzzleOut.conclusion
HelperOut.refusals
# ... and the accounts' answers, built as dicts by web.accounts_api.
RatingOut.provisional
RunningGameOut.your_turn
BoardRowOut.provisional
LeaderboardOut.provisional_under
# aiosmtpd calls its handler's hook by name (tests/test_turn_mail.py).
_.handle_DATA
# The lobby's clock fields: read as a whole (model_dump) by web.lobby_api, or built as dicts.
TimeControlIn.time_bank_s
TimeControlIn.increment_s
ClockOut.time_bank_s
ClockOut.increment_s
# gunicorn loads its worker class by name (gunicorn.conf.py's worker_class).
ClientLimitedWorker
# A turn-order preset the engines may declare (games.order; tests/test_turn_order.py).
by_ranking
