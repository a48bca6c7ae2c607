"""Tobago (rules: ``../shared/rules/tobago.md``): the engine, per-seat views and bots.

Registered as game kind ``tobago``. The module map:

- ``rules``: constants (``data/tobago.json``) and the rule options;
- ``state``: the state dataclasses (a ``games.state.GameState``) and their JSON form;
- ``islands``: the island a game is played on, rebuilt from its options;
- ``actions``: every action type, declared once (``games.actions``);
- ``engine``: setup and the helpers every phase uses; ``turn``: setup and turn actions;
  ``sharing``: raising, sharing, curses, the map's restart, statues, the end;
- ``views``: what each seat may see; ``kind``: the declared phases (``games.phases``) and
  ``TobagoKind``, wiring it all to ``games.base``;
- ``bots`` / ``strategy``: the random and strategic bots.

Decisions where the rules leave a gap (each one also noted where it is implemented):

- **Setup.** ATVs are placed one seat at a time in seat order (``place_atv``), then each seat in
  order gets a face-up clue card and picks its map (``first_clue``); a drawn card that fits no
  map (it would leave no candidate on an empty map and is no legal play on a started one) is
  discarded and the next is drawn. Seat 0 starts.
- **Action 1.** Every play after the first costs an amulet. The extra compass marker
  (``extra_marker`` option) is mandatory when possible and may go on *any* clue card (any map)
  carrying exactly one of the player's markers; placing it ends the action. When nothing is
  left to decide the action ends by itself; ``end_turn`` ends it when no extra marker fits. The
  hand is then refilled; when the clue deck and its discards are both empty it stays short.
- **Action 2.** Movement uses amulet points first (they pay movement only). The free pick-up
  applies on the space where the drive started. An ``end_turn`` before anything else is a
  drive with no movement (a pass). ``remove_marker`` works on any map whatever its count, never
  on its last candidate (rules §5: the 17 physical markers are a table convenience).
- **Sharing.** Shares are drawn seat by seat from the raiser on; each seat's drawn values are
  kept in its ``memory`` (shown to it only), then the raiser's unseen card is added and the
  pile shuffled. A turned card's value is public (it is face up). Offers follow the markers
  from the bottom up; a seat is asked once per card, at its lowest marker, and accepting removes
  that marker. A curse: the curse cards leave the game, the rest of the pile goes to the
  treasure discards (rules §7.4); every seat with a
  marker left loses an amulet (automatically) or, having none, its highest treasure card, which
  goes to the treasure discards. The restart card is turned until one leaves a candidate.
- **End.** The game ends after the sharing during which the treasure deck ran out (then the map
  is not restarted and statues do not act). A treasure deck that runs out while shares are drawn
  is rebuilt from the shuffled discards first. With no card at all left, fewer cards are drawn.
  When no player has a compass marker left, nobody can ever raise (markers only come back from
  a sharing): the game ends at once with the scores as they stand.
- **A table that stops playing** (rules §8). A turn makes progress when it plays a clue card,
  places or removes a marker, or raises a treasure; exchanges, drives and passes make none.
  After two whole rounds without progress (``2 × seats`` turns in a row, counted from any
  seat's, ``engine.STALL_ROUNDS``; the views show the count as ``stall``) the game ends at once
  with the scores as they stand (``end``: ``stalled``), as when no marker is left. The setup
  counts no turn. Bots never rely on it (``strategy``).
- **Views.** Other seats' treasure values are hidden (only their count shows), even though each
  was turned face up when offered: the public log keeps the offers as the table would.
"""

from games.base import register
from games.tobago.kind import KIND, TobagoKind

register(KIND)

__all__ = ["KIND", "TobagoKind"]
