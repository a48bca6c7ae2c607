"""Isla Dorada: bid to steer one expedition across the island toward your treasures. Registers the
``isla_dorada`` game kind (3-6 seats).

Modules: ``tables`` (the map and the cards from ``data/``), ``state`` (the state, the deal, the
snapshot), ``actions`` (every action type, declared once: ``games.actions``), ``payment``
(which cards pay a route, the most a hand pays, the ways to pay), ``auction`` (spoken bids,
passes, Juju, the winner's payment), ``rounds`` (moving, curses, treasures, cable news),
``drawing`` (drawing and lightning cards, the hand limit), ``phases`` (a round's start, the game's end, the rules'
refusal), ``scoring`` (destiny missions, the breakdown), ``views`` (what each seat sees,
secrets, statistics), ``engine`` (the declared phases, the ``GameKind`` and the Decisions),
``bots`` and ``planner``.
"""

from games.base import register
from games.isla_dorada.engine import KIND, IslaKind
from games.isla_dorada.state import IslaState

register(KIND)

__all__ = ["KIND", "IslaKind", "IslaState"]
