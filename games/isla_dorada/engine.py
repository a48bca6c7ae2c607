"""The Isla Dorada engine behind the shared shape (rules: ``../shared/rules/isla_dorada.md``).

3-6 seats; seat 0 is the youngest player and takes the leader token; clockwise is up the seat
numbers. Phases (``IslaState.phase``) and who acts (``to_act``):

- ``setup``: every seat at once, secretly: ``{"type": "setup", "discard_treasure": "s4",
  "discard_destiny": "d7"}`` (keep the other two starting treasures and the other destiny card;
  the treasure leaves the game, the destiny card goes under the destiny deck).
- ``bid``: the seat whose turn it is (``games.isla_dorada.auction``).
- ``move``, ``draw``, ``lightning``: the leader / the drawing seat (``games.isla_dorada.rounds``).
- ``treasure`` and ``news``: every seat at once, secretly; ``limit``: every seat above 10 cards.

Decisions (the rules page says the same):

- **The map, the card splits, the lightning effects** are the project's
  (``data/map.json``, ``data/cards.json``; why, in their ``about``).
- **Bonus cards are adventure cards** (12 of the 112): drawn like the others, they count toward
  the hand limit; one is played with a treasure card of its symbol family and scores its points.
- **Bidding.** Every seat, the leader included, may pass; a passed seat bids again when its turn
  comes round. With no bid yet the least bid is 1, but the leader's first turn may open at 0.
  Losing bids go back to their hands; the winner discards its cards and pays 1 gold per Drako
  and 3 per Zeppelin. Juju bars a seat for the rest of this auction (its bid returns to it).
  Ovetos and Sangaia are played *with* a bid (public, discarded if it wins; Ovetos ends the
  auction at once when the bid is worth 4 or more). The winner chooses Sangaia's route on; with no
  route of the type on, Sangaia is lost and the expedition stops. A Shaman bid converts every card
  of one kind it holds. Bigfoot and the Leviathan start off the map.
- **Moving.** Only the final stop of a move is explored (gets a marker, curses, treasures):
  places a river carries the expedition through or Sangaia skips are not. A figure blocks a route
  for bids, Sangaia and river continuations alike. Cable news comes with the red markers: in the
  round that places the 4th (draw 2, keep 1) and the 9th marker (draw 3, keep 2); a return to the
  crash site places no marker, so the news and the end come a round later.
- **The treasure phase** is one secret choice per seat (all plays at once), revealed when all have
  chosen; every seat chooses, so nobody learns from being asked who holds a card for the place.
- **The end.** The round of the 16th marker ends after its treasures (drawing could change no
  score). **A table that stops playing:** when every seat passes with no bid in two rounds
  running, the game ends after the second of them, scored as after the last marker (``end``:
  ``"stalled"``). Every round ends (bids strictly rise and cards run out), and every round but an
  idle one or a return to the crash site places a marker; a crash-site return needs a move from
  a neighbour (or a flight with Sangaia, which costs gold that never comes back), so a game ends
  within a bounded number of rounds.
- **Information.** Gold, hand sizes, the number of goal cards each seat holds, bids and all
  that is played are public; hands, held treasures, curses and destiny cards are not, and neither
  is a choice before it is revealed. A card bid and taken back was seen: it stays in the log.
"""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import Action, Event, GameKind, GameType
from games.isla_dorada import auction as A
from games.isla_dorada import drawing as D
from games.isla_dorada import phases as P
from games.isla_dorada import rounds as R
from games.isla_dorada import tables as T
from games.isla_dorada import views as V
from games.isla_dorada.bots import BOTS
from games.isla_dorada.scoring import breakdown
from games.isla_dorada.state import IslaState, deal, from_json, to_json

_SIMULTANEOUS = ("setup", "treasure", "news")
#: Every action type of the game (phase by phase: engine docstring and the modules it names).
ACTION_TYPES = frozenset(
    {
        "setup",
        "bid",
        "pass",
        "juju",
        "detour",
        "continue",
        "stop",
        "treasures",
        "news",
        "take",
        "buy",
        "done",
        "bigfoot",
        "leviathan",
        "thief",
        "voodoo",
        "discard",
    }
)


class IslaKind(GameKind):
    """Isla Dorada behind the shared engine shape."""

    def __init__(self) -> None:
        super().__init__(
            GameType(
                "isla_dorada",
                3,
                6,
                (),
                chance="seeded",
                information="imperfect",
                turns="simultaneous",
                timed=False,
            ),
            BOTS,
        )

    # --- setup, seats, turns -------------------------------------------------------------

    def setup(self, seed: int, seats: int, options: dict) -> IslaState:
        return deal(seed, seats, options)

    def seat_count(self, state: IslaState) -> int:
        return state.seats

    def is_over(self, state: IslaState) -> bool:
        return state.phase == "over"

    def to_act(self, state: IslaState) -> list[int]:
        phase = state.phase
        if phase in _SIMULTANEOUS:
            return [s for s in range(state.seats) if not state.chosen[s]]
        if phase == "bid":
            return [state.turn]
        if phase == "move":
            return [state.leader]
        if phase == "draw":
            return [state.draw_seat]
        if phase == "lightning":
            assert state.lightning is not None
            return [state.lightning["seat"]]
        if phase == "limit":
            return D.over_limit(state)
        return []

    def legal(self, state: IslaState, seat: int) -> list[Action]:
        phase = state.phase
        if phase == "bid":
            return A.legal_bids(state, seat)
        if phase == "draw":
            return D.legal_draw(state)
        if phase == "treasure":
            return R.legal_treasures(state, seat)
        if phase == "move":
            return R.legal_move(state)
        if phase == "lightning":
            return D.legal_lightning(state)
        if phase == "news":
            return R.legal_news(state, seat)
        if phase == "limit":
            return D.legal_discard(state, seat)
        if phase == "setup":
            offer = state.offers[seat]
            return [
                {"type": "setup", "discard_treasure": T.GOAL_ID[t], "discard_destiny": T.GOAL_ID[d]}
                for t in offer
                if T.GOAL_DECK[t] == "start"
                for d in offer
                if T.GOAL_DECK[d] == "destiny"
            ]
        return []

    # --- play ----------------------------------------------------------------------------

    def play(self, state: IslaState, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None  # no clock: only seats act
        events: list[Event] = []
        phase, kind = state.phase, action["type"]
        if kind not in ACTION_TYPES:
            raise InvalidInput(
                f"unknown action type {kind!r}",
                "action.type",
                reason="isla_unknown_action",
                params={"type": kind},
            )
        if phase == "bid":
            if kind == "bid":
                bid = A.parse_bid(state, seat, action)
                result = A.place_bid(state, seat, bid, events)
            elif kind == "pass":
                _no_fields(action)
                result = A.pass_turn(state, seat, events)
            elif kind == "juju":
                card, target = A.parse_juju(state, seat, action)
                result = A.play_juju(state, seat, card, target, events)
            else:
                raise _wrong_type(phase, kind, ("bid", "pass", "juju"))
            if result is not None:
                R.after_auction(state, A.settle(state, events), events)
        elif phase == "draw":
            if kind not in ("take", "buy", "done"):
                raise _wrong_type(phase, kind, ("take", "buy", "done"))
            D.play_draw(state, seat, action, events)
        elif phase == "treasure":
            if kind != "treasures":
                raise _wrong_type(phase, kind, ("treasures",))
            R.play_treasures(state, seat, action, events)
        elif phase == "move":
            R.play_move(state, action, events)
        elif phase == "lightning":
            D.play_lightning(state, seat, action, events)
        elif phase == "news":
            if kind != "news":
                raise _wrong_type(phase, kind, ("news",))
            R.play_news(state, seat, action, events)
        elif phase == "limit":
            if kind != "discard":
                raise _wrong_type(phase, kind, ("discard",))
            D.play_discard(state, seat, action, events)
        else:  # setup
            if kind != "setup":
                raise _wrong_type(phase, kind, ("setup",))
            self._play_setup(state, seat, action, events)
        state.actions += 1
        state.last_events = events
        return events

    def _play_setup(self, state: IslaState, seat: int, action: Action, events: list[Event]) -> None:
        extra = sorted(set(action) - {"type", "discard_treasure", "discard_destiny"})
        if extra:
            raise InvalidInput(
                f"unknown action field {extra[0]!r}",
                f"action.{extra[0]}",
                reason="malformed_action",
            )
        offer = {T.GOAL_ID[g]: g for g in state.offers[seat]}
        picks = {}
        for key, deck in (("discard_treasure", "start"), ("discard_destiny", "destiny")):
            cid = action.get(key)
            g = offer.get(cid) if isinstance(cid, str) else None
            if g is None or T.GOAL_DECK[g] != deck:
                raise IllegalAction(
                    f"{key} must name one of the {deck} cards you were dealt",
                    f"action.{key}",
                    reason="isla_setup_card",
                    params={"card": str(cid)},
                )
            picks[deck] = g
        for g in state.offers[seat]:
            if g == picks["start"]:
                state.out.append(g)
            elif g == picks["destiny"]:
                state.ddeck.insert(0, g)  # the bottom of the deck
            elif T.GOAL_DECK[g] == "destiny":
                state.destiny[seat] = g
            else:
                state.treasures[seat].append(g)
        state.offers[seat] = []
        state.chosen[seat] = True
        events.append({"type": "chosen", "seat": seat, "phase": "setup"})
        if all(state.chosen):
            P.start_round(state, events)

    # --- results -------------------------------------------------------------------------

    def scores(self, state: IslaState) -> list[float] | None:
        if state.phase != "over":
            return None
        return [float(breakdown(state, s)["total"]) for s in range(state.seats)]

    def observe(self, state: IslaState, seat: int | None) -> dict:
        return V.observe(self, state, seat)

    def view_schema(self) -> dict:
        return V.schema()

    def private_items(self, state: IslaState, seat: int) -> list[Any]:
        return V.private_items(state, seat)

    def hidden_items(self, state: IslaState) -> list[Any]:
        return V.hidden_items(state)

    def statistics(self, state: IslaState) -> dict:
        return V.statistics(state)

    def state_to_json(self, state: IslaState) -> dict:
        return to_json(state)

    def state_from_json(self, data: dict) -> IslaState:
        return from_json(data)


def _no_fields(action: Action) -> None:
    extra = sorted(set(action) - {"type"})
    if extra:
        raise InvalidInput(
            f"unknown action field {extra[0]!r}", f"action.{extra[0]}", reason="malformed_action"
        )


def _wrong_type(phase: str, kind: str, allowed: tuple[str, ...]) -> IllegalAction:
    return IllegalAction(
        f"{kind!r} is not an action of the {phase} phase (now: {', '.join(allowed)})",
        "action.type",
        reason="isla_wrong_phase",
        params={"phase": phase, "allowed": list(allowed)},
    )


KIND = IslaKind()
