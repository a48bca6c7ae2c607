"""DAO (道): press-your-luck set collection for 2-6 seats. Registers the ``dao`` game kind.

Modules: ``cards`` (the deck tables from ``data/cards.json``), ``engine`` (the state, its one
phase and two action types, rules, views),
``odds`` (the helper panel and the expected-value arithmetic, pure functions of a view),
``bots`` (the levels: random, greedy, the rollouts; the ev look-ahead), ``strong`` (the strong
level's determinized rollouts), ``analysis`` (the review's piece).
"""

from games.base import register
from games.dao.engine import KIND, DaoKind, DaoState

register(KIND)

__all__ = ["KIND", "DaoKind", "DaoState"]
