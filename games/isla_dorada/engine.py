"""The Isla Dorada engine behind the shared shape (rules: ``../shared/rules/isla_dorada.md``).

3-6 seats; seat 0 is the youngest player and takes the leader token; clockwise is up the seat
numbers. The phases (declared in ``PHASES``; their action types in ``games.isla_dorada.actions``)
and who acts in each:

- ``setup``: every seat at once, secretly: ``{"type": "setup", "discard_treasure": "s4",
  "discard_destiny": "d7"}`` (keep the other two starting treasures and the other destiny card;
  the treasure leaves the game, the destiny card goes under the destiny deck).
- ``bid``: the seat whose turn it is; ``pay``: the auction's winner (``games.isla_dorada.auction``).
- ``move``, ``draw``, ``lightning``: the leader / the drawing seat (``games.isla_dorada.rounds``).
- ``treasure`` and ``news``: every seat at once, secretly; ``limit``: every seat above 10 cards.

Decisions (the rules page says the same):

- **The map, the card splits, the lightning effects** are the project's
  (``data/map.json``, ``data/cards.json``; why, in their ``about``).
- **Bonus cards are adventure cards** (12 of the 112): drawn like the others, they count toward
  the hand limit; one is played with a treasure card of its symbol family and scores its points.
- **Bidding.** A bid is spoken (the seed: 說出一個比現時出價為高的數目): it shows the route
  (or the flight) and a number, never cards; a number may be bid only if the bidder's hand can
  pay it on that route. The leader always opens, 0 being a bid, so every round has a winner
  and the expedition moves every round; with a bid standing a seat may pass, and a passed seat
  bids again when its turn comes round. Juju bars a seat for the rest of this auction (its bid
  is dropped, the best other standing bid leads again; should none stand, the Juju's player
  must bid, 0 being enough, as the leader opens). Shaman, Ovetos and Sangaia are shown face up
  *with* a bid, back to the hand when it is raised, barred or beaten, discarded when it wins
  (Ovetos ends the auction at once when the bid is 4 or more; a Shaman bid converts every card
  of one kind, and the hand must hold one). **Only the winner plays its cards** (phase
  ``pay``): it chooses, after winning, cards of its hand that pay the route worth at least its
  bid, each of them needed, and pays 1 gold per Drako and 3 per Zeppelin among them (a bid of 0
  needs none). So the cards behind a losing bid are never named: not in a view, an event, the
  log or any seat's legal actions (the seat's own view says, while bidding, the most its hand
  can pay on each route: ``mine.can_pay``). The winner chooses Sangaia's route on; with no route
  of the type on, Sangaia is lost and the expedition stops. Bigfoot and the Leviathan start off
  the map.
- **Moving.** Only the final stop of a move is explored (gets a marker, curses, treasures):
  places a river carries the expedition through or Sangaia skips are not. After a flight,
  Sangaia goes on to any neighbour of the destination, whatever a river's direction between
  them, flying (no river leg follows). A figure blocks a route for bids, Sangaia and river
  continuations alike. Cable news comes with the red markers: in the
  round that places the 4th (draw 2, keep 1) and the 9th marker (draw 3, keep 2); a return to the
  crash site places no marker, so the news and the end come a round later.
- **The treasure phase** is one secret choice per seat (all plays at once), revealed when all have
  chosen; every seat chooses, so nobody learns from being asked who holds a card for the place,
  and the chosen cards stay in the seat's hand and goal cards until the reveal, so no count
  (``hand_size``, ``goal_cards``) moves before it.
- **The end.** The round of the 16th marker ends after its treasures (drawing could change no
  score). There is no other end (the seed's game lasts at least 16 rounds; an idle human seat
  is the service's turn limit, not a rule of this game). **A game ends within a bounded number
  of rounds:** every round ends (bids strictly rise and are bounded by the cards a hand can
  pay; each Juju discards a card), every round has a winner and moves the expedition (every
  location has at least three routes and the two figures block at most two, so the leader can
  always open at 0), and every move places a marker but one that ends at the crash site. A move
  from the crash site never ends there but by a flight (no two routes join the same places, no
  river leaves it), and a flight costs gold that never comes back (at most 10 per seat); so of
  any two rounds in a row one places a marker, but for flights: at most 2 × 16 + 10 × seats
  rounds (``tests/test_isla_dorada_data.py`` checks the map's part of this).
- **Information.** Gold, hand sizes, the number of goal cards each seat holds, spoken bids,
  the special cards shown with them and all that is played are public; hands, held treasures,
  curses and destiny cards are not, and neither is a choice before it is revealed.
"""

from __future__ import annotations

import random
from typing import Any

from errors import IllegalAction
from games.base import Action, Event, GameKind, GameType
from games.isla_dorada import actions as I
from games.isla_dorada import analysis as Z
from games.isla_dorada import auction as A
from games.isla_dorada import drawing as D
from games.isla_dorada import keeping, strong
from games.isla_dorada import phases as P
from games.isla_dorada import planner as B
from games.isla_dorada import rounds as R
from games.isla_dorada import tables as T
from games.isla_dorada import views as V
from games.isla_dorada.bots import ALIASES, BOTS
from games.isla_dorada.scoring import breakdown
from games.isla_dorada.state import IslaState, deal, from_json, to_json
from games.order import TurnOrder, simultaneous
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


# --- the auction: a bid or a pass may end it; the winner pays, then moves --------------------


def _auction_goes_on(state: IslaState, ended: bool, events: list[Event]) -> None:
    """After a bid or a pass: when the auction ended, the winner pays (``pay``) or, with a bid
    of 0, moves at once (``rounds``)."""
    if ended and not A.settle(state, events):
        R.begin_move(state, events)


def play_bid(state: IslaState, seat: int, action: I.Bid, events: list[Event]) -> None:
    bid = A.check_bid(state, seat, action)
    _auction_goes_on(state, A.place_bid(state, seat, bid, events), events)


def play_pass(state: IslaState, seat: int, action: Any, events: list[Event]) -> None:
    _auction_goes_on(state, A.pass_turn(state, seat, events), events)


def play_juju(state: IslaState, seat: int, action: I.Juju, events: list[Event]) -> None:
    card, target = A.check_juju(state, seat, action)
    A.play_juju(state, seat, card, target, events)


def play_pay(state: IslaState, seat: int, action: I.Pay, events: list[Event]) -> None:
    A.pay(state, seat, A.check_pay(state, seat, action), events)
    R.begin_move(state, events)


def _choosing(state: IslaState) -> list[int]:
    """The seats still to make a simultaneous phase's secret choice."""
    return [s for s in range(state.seats) if not state.chosen[s]]


#: The secret choices' turn order (setup, treasures, news): every seat yet to choose at once.
SECRET_CHOICE: TurnOrder[IslaState] = simultaneous(_choosing)


def _leader(state: IslaState) -> list[int]:
    """Who acts while the round's winner pays and moves the expedition: the leader."""
    return [state.leader]


PHASES: tuple[Phase[IslaState], ...] = (
    Phase(
        "setup",
        SECRET_CHOICE,
        legal_setup,
        (Move(I.Setup, play_setup),),
        analysis=Z.judge_keep,
        bot={"planner": B.setup, "strong": keeping.best},
    ),
    Phase(
        "bid",
        A.BIDS,
        A.legal_bids,
        (Move(I.Bid, play_bid), Move(I.Pass, play_pass), Move(I.Juju, play_juju)),
        view=V.auction_piece,
        analysis=Z.judge_bid,
        bot={"planner": B.bid, "candidates": strong.bid_candidates},
    ),
    Phase(
        "pay",
        _leader,
        A.legal_pay,
        (Move(I.Pay, play_pay),),
        view=V.pay_piece,
        analysis=Z.judge_pay,
        bot={"planner": B.pay},
    ),
    Phase(
        "move",
        _leader,
        R.legal_move,
        (Move(I.Detour, R.play_detour), Move(I.Continue, R.play_river), Move(I.Stop, R.play_river)),
        view=V.move_piece,
        analysis=Z.judge_move,
        bot={"planner": B.move},
    ),
    Phase(
        "treasure",
        SECRET_CHOICE,
        R.legal_treasures,
        (Move(I.Treasures, R.play_treasures),),
        analysis=Z.judge_treasures,
        bot={"planner": B.treasures},
    ),
    Phase(
        "news",
        SECRET_CHOICE,
        R.legal_news,
        (Move(I.News, R.play_news),),
        view=V.news_piece,
        analysis=Z.judge_keep,
        bot={"planner": B.news, "strong": keeping.best},
    ),
    Phase(
        "draw",
        D.DRAWS,
        D.legal_draw,
        (Move(I.Take, D.play_draw), Move(I.Buy, D.play_draw), Move(I.Done, D.play_done)),
        view=V.draw_piece,
        bot={"planner": B.draw, "candidates": strong.draw_candidates},
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
        view=V.draw_piece,
        bot={"planner": B.lightning},
    ),
    Phase(
        "limit",
        D.over_limit,
        D.legal_discard,
        (Move(I.Discard, D.play_discard),),
        bot={"planner": B.discard},
    ),
)


class IslaKind(GameKind[IslaState]):
    """Isla Dorada behind the shared engine shape."""

    snapshot_format = 3

    #: The bot levels' anchors (``GameKind.level_ratings``): each level's mu in
    #: ``python -m games.tournament isla_dorada --games 4`` (README, "Bot levels"), rounded.
    level_ratings = {"easy": 3.7, "normal": 33.1, "strong": 38.9}

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
            ALIASES,
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
