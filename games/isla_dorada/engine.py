"""The Isla Dorada engine behind the shared shape (rules: ``../shared/rules/isla_dorada.md``).

3-6 seats; seat 0 is the youngest player and takes the leader token; clockwise is up the seat
numbers. The phases (declared in ``PHASES``; their action types in ``games.isla_dorada.actions``)
and who acts in each:

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

import random
from typing import Any

from errors import IllegalAction
from games.base import Action, Event, GameKind, GameType
from games.isla_dorada import actions as I
from games.isla_dorada import auction as A
from games.isla_dorada import drawing as D
from games.isla_dorada import phases as P
from games.isla_dorada import rounds as R
from games.isla_dorada import tables as T
from games.isla_dorada import views as V
from games.isla_dorada.bots import BOTS
from games.isla_dorada.scoring import breakdown
from games.isla_dorada.state import IslaState, deal, from_json, to_json
from games.phases import Move, Phase
from games.state import OVER

# --- setup -------------------------------------------------------------------------------------


def legal_setup(state: IslaState, seat: int) -> list[Action]:
    offer = state.offers[seat]
    return [
        {"type": "setup", "discard_treasure": T.GOAL_ID[t], "discard_destiny": T.GOAL_ID[d]}
        for t in offer
        if T.GOAL_DECK[t] == "start"
        for d in offer
        if T.GOAL_DECK[d] == "destiny"
    ]


def play_setup(state: IslaState, seat: int, action: I.Setup, events: list[Event]) -> None:
    picks = {}
    for key, deck, card in (
        ("discard_treasure", "start", action.discard_treasure),
        ("discard_destiny", "destiny", action.discard_destiny),
    ):
        if card not in state.offers[seat] or T.GOAL_DECK[card] != deck:
            raise IllegalAction(
                f"{key} must name one of the {deck} cards you were dealt",
                f"action.{key}",
                reason="isla_setup_card",
                params={"card": T.GOAL_ID[card]},
            )
        picks[deck] = card
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


# --- the auction: each of its actions may end it ---------------------------------------------


def _auction_goes_on(state: IslaState, ended: str | None, events: list[Event]) -> None:
    """After a bid, pass or Juju: when the auction ended, the winner moves (``rounds``)."""
    if ended is not None:
        R.after_auction(state, A.settle(state, events), events)


def play_bid(state: IslaState, seat: int, action: I.Bid, events: list[Event]) -> None:
    bid = A.check_bid(state, seat, action)
    _auction_goes_on(state, A.place_bid(state, seat, bid, events), events)


def play_pass(state: IslaState, seat: int, action: Any, events: list[Event]) -> None:
    _auction_goes_on(state, A.pass_turn(state, seat, events), events)


def play_juju(state: IslaState, seat: int, action: I.Juju, events: list[Event]) -> None:
    card, target = A.check_juju(state, seat, action)
    _auction_goes_on(state, A.play_juju(state, seat, card, target, events), events)


def _choosing(state: IslaState) -> list[int]:
    """The seats still to make a simultaneous phase's secret choice."""
    return [s for s in range(state.seats) if not state.chosen[s]]


PHASES: tuple[Phase[IslaState], ...] = (
    Phase("setup", _choosing, legal_setup, (Move(I.Setup, play_setup),)),
    Phase(
        "bid",
        lambda state: [state.turn],
        A.legal_bids,
        (Move(I.Bid, play_bid), Move(I.Pass, play_pass), Move(I.Juju, play_juju)),
    ),
    Phase(
        "move",
        lambda state: [state.leader],
        R.legal_move,
        (Move(I.Detour, R.play_detour), Move(I.Continue, R.play_river), Move(I.Stop, R.play_river)),
    ),
    Phase("treasure", _choosing, R.legal_treasures, (Move(I.Treasures, R.play_treasures),)),
    Phase("news", _choosing, R.legal_news, (Move(I.News, R.play_news),)),
    Phase(
        "draw",
        lambda state: [state.draw_seat],
        D.legal_draw,
        (Move(I.Take, D.play_draw), Move(I.Buy, D.play_draw), Move(I.Done, D.play_done)),
    ),
    Phase(
        "lightning",
        D.lightning_seat,
        D.legal_lightning,
        (
            Move(I.Bigfoot, D.play_figure),
            Move(I.Leviathan, D.play_figure),
            Move(I.Thief, D.play_target),
            Move(I.Voodoo, D.play_target),
        ),
    ),
    Phase("limit", D.over_limit, D.legal_discard, (Move(I.Discard, D.play_discard),)),
)


class IslaKind(GameKind[IslaState]):
    """Isla Dorada behind the shared engine shape."""

    snapshot_format = 2

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
            PHASES,
            BOTS,
        )

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> IslaState:
        return deal(seed, seats, options, rng)

    def after_action(
        self, state: IslaState, seat: int | None, action: Action, events: list[Event]
    ) -> None:
        state.last_events = events

    # --- results -------------------------------------------------------------------------

    def finish(self, state: IslaState, end: str, events: list[Event]) -> None:
        """The game ends now (``end``: e.g. ``log_full``), scored as it stands."""
        P.finish(state, end, events)

    def scores(self, state: IslaState) -> list[float] | None:
        if state.phase != OVER:
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

    def encode(self, state: IslaState) -> dict:
        return to_json(state)

    def decode(self, data: dict, common: dict[str, Any]) -> IslaState:
        return from_json(data, common)


KIND = IslaKind()
