"""DAO (道): press-your-luck set collection for 2-6 seats. Registers the ``dao`` game kind.

Modules: ``cards`` (the deck tables from ``data/cards.json``), ``engine`` (the state, its one
phase and two action types, rules, views),
``odds`` (the helper panel and the expected-value arithmetic, pure functions of a view),
``bots`` (random, greedy, ev).
"""

from games.base import register
from games.dao.engine import KIND, DaoKind, DaoState

register(KIND)

__all__ = ["KIND", "DaoKind", "DaoState"]
