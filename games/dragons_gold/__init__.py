"""Dragon's Gold for 3-6 seats: every rule of ``../shared/rules/dragons_gold.md``, basic and
advanced, the timed negotiation and the variant by division, the market. Registers the
``dragons_gold`` game kind.

Modules: ``data`` (the tables of ``data/*.json``: hunters, tokens, the project's dragon table and
magic items, scoring tables), ``table`` (the state dataclasses and shared operations),
``snapshot`` (the state's JSON form), ``actions`` (every action type, declared once:
``games.actions``), ``fight`` (turns, hunters, slaying, items), ``settle`` (sole slayer,
negotiation, division, even split, wizard, thieves), ``market``, ``scoring``, ``splits`` (ways
to split a treasure), ``views`` (the view contract and what is secret), ``engine`` (the declared
phases and the game kind), ``bots`` (random, greedy). The modules import in one direction:
``fight`` → ``settle`` → ``market`` → ``table``; a phase hands over by entering the next.
"""

from games.base import register
from games.dragons_gold.engine import KIND, DragonsGoldKind

register(KIND)

__all__ = ["KIND", "DragonsGoldKind"]
