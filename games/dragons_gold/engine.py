"""The Dragon's Gold game kind: options, the declared phases, timers, the snapshot.

Options: ``advanced`` (false: basic rules; true: magic items, the advanced wizard, thief and
scoring), ``negotiation`` (``"timed"``: proposals against the clock; ``"division"``: the
variant without negotiation), ``negotiation_seconds`` and ``market_seconds`` (the timers, default
60; 5-600). Seat 0 starts; play goes up the seat numbers ("left" is the next seat).

The phases (``PHASES``; their action types in ``games.dragons_gold.actions``) and who acts: the
fight (``fight``), the seat whose turn it is; a slain dragon's settlement (``settle``): in a
timed negotiation (``proposals``) every participant at once (propose, accept, reject), in a
division the divider (``divide``), then each picker (``pick``), then each thief's owner to steal
or decline (``steal``, or ``look`` behind the screen); at the ``market`` every player still in it. Timed
phases: ``proposals`` and ``market``, each ending with the table's ``{"type": "timeout"}``; in
them a seat makes at most ``PROPOSALS_PER_SEAT`` proposals, ``ANSWERS_PER_SEAT`` accepts and as
many rejects per negotiation, and ``OFFERS_PER_SEAT`` offers per market.
One phase hands over to the next by entering it (``games.state.enter``): the fight's ``begin``
gives the turn to the seat due to play, so no module of the game imports one that imports it.

**A game ends.** At most 18 dragons are slain (each leaves the game); between two slayings the
fight plays at most one hunter per turn and a hunter comes back only from a slain dragon, so
after at most 4 hunters per seat a dragon is slain (or overwhelmed: ``fight``); each magic item
used is discarded, and items are drawn only for the 16 red tokens and the deal; a division, its
picks and the thefts take one action each; and the timed phases (proposals, the market) end by
their clocks, logged as the table's timeouts.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from games.base import GameKind, GameType, OptionSpec
from games.dragons_gold import actions as D
from games.dragons_gold import analysis as Z
from games.dragons_gold import fight, greedy, market, settle, strong, trading, views
from games.dragons_gold import strong_trading as ST
from games.dragons_gold.bots import ALIASES, BOTS
from games.dragons_gold.data import count
from games.dragons_gold.scoring import breakdown
from games.dragons_gold.snapshot import from_json, to_json
from games.dragons_gold.table import FIGHT, DragonsGoldState, new
from games.order import no_turn
from games.phases import Event, Move, Phase, PhaseTimer
from games.state import OVER, enter

NAME = "dragons_gold"
_OPTIONS = (
    OptionSpec("advanced", False),
    OptionSpec("negotiation", "timed", ("timed", "division")),
    OptionSpec("negotiation_seconds", 60, bounds=(5, 600)),
    OptionSpec("market_seconds", 60, bounds=(5, 600)),
)

#: The JSON Schema of every view (``view_schema``; tests validate real views against it).
VIEW_SCHEMA: dict = json.loads(
    (Path(__file__).parent / "data" / "view_schema.json").read_text(encoding="utf-8")
)


#: What one seat may do in one timed negotiation: propose (each proposal replaces the standing
#: one: a negotiation holds one proposal at a time) and answer; and in one market, offer (each
#: offer replaces the seat's own open one). One more is refused (``move_limit``), so no seat
#: can fill a game's log against the clock (``games.turns``).
PROPOSALS_PER_SEAT = 20
ANSWERS_PER_SEAT = 100
OFFERS_PER_SEAT = 20


def _seconds(option: str) -> Any:
    def seconds(state: DragonsGoldState) -> float:
        return float(state.options[option])

    return seconds


PHASES: tuple[Phase[DragonsGoldState], ...] = (
    Phase(
        "fight",
        FIGHT,
        fight.legal,
        (Move(D.Play, fight.play_hunter), Move(D.Use, fight.use_item)),
        begin=fight.begin,
        analysis=Z.judge_fight,
        bot={"greedy": greedy.fight, "strong": strong.fight},
    ),
    Phase(
        "proposals",
        settle.participants,
        settle.legal_proposals,
        (
            Move(D.Propose, settle.propose, limit=PROPOSALS_PER_SEAT),
            Move(D.AcceptProposal, settle.answer, limit=ANSWERS_PER_SEAT),
            Move(D.RejectProposal, settle.answer, limit=ANSWERS_PER_SEAT),
        ),
        timer=PhaseTimer(_seconds("negotiation_seconds"), settle.timeout),
        bot={
            "greedy": greedy.proposals,
            "strong": strong.proposals,
            "rollout": strong.public_proposals,
        },
    ),
    Phase("divide", settle.divider, settle.legal_divide, (Move(D.Divide, settle.divide),)),
    Phase(
        "pick",
        settle.picker,
        settle.legal_pick,
        (Move(D.Pick, settle.pick),),
        analysis=Z.judge_pick,
        bot={"greedy": greedy.pick, "strong": strong.pick},
    ),
    Phase(
        "steal",
        settle.thief,
        settle.legal_steal,
        (Move(D.Steal, settle.steal), Move(D.Decline, settle.decline)),
        bot={"greedy": greedy.theft},
    ),
    Phase(
        "look",
        settle.thief,
        settle.legal_look,
        (Move(D.TakeColour, settle.take), Move(D.Decline, settle.decline)),
        bot={"greedy": greedy.theft},
    ),
    Phase(
        "market",
        market.MARKET,
        market.legal,
        (
            Move(D.Offer, market.offer, limit=OFFERS_PER_SEAT),
            Move(D.AcceptOffer, market.answer),
            Move(D.RejectOffer, market.answer),
            Move(D.Withdraw, market.withdraw),
            Move(D.Show, market.show),
            Move(D.Done, market.done),
        ),
        timer=PhaseTimer(_seconds("market_seconds"), market.close),
        bot={
            "easy": trading.normal_market,
            "greedy": greedy.market,
            "strong": strong.market,
            "strong_level": ST.strong_market,
            "waits": trading.waits,
        },
        analysis=Z.judge_market,
    ),
)


class DragonsGoldKind(GameKind[DragonsGoldState]):
    """Dragon's Gold behind the shared engine shape (state: ``games.dragons_gold.table``)."""

    #: 3 since issue 22 (the market with the 11th dragon, a thief's decline): a snapshot of
    #: before is of a game under the old rules, so it is refused and the log replays from the
    #: start (the service checks that replay: ``web.service.replay``).
    snapshot_format = 3

    #: The bot levels' anchors (``GameKind.level_ratings``): each level's mu in
    #: ``python -m games.tournament dragons_gold --games 2`` (README, "Bot levels"), rounded.
    level_ratings = {"easy": 8.4, "normal": 25.9, "strong": 42.0}

    def __init__(self) -> None:
        super().__init__(
            GameType(
                NAME,
                3,
                6,
                _OPTIONS,
                chance="seeded",
                information="imperfect",
                turns="simultaneous",
                timed=True,
            ),
            PHASES,
            BOTS,
            ALIASES,
        )

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> DragonsGoldState:
        state, _ = new(seed, seats, options, rng)
        return state

    def observe(self, state: DragonsGoldState, seat: int | None) -> dict:
        return views.observe(state, seat)

    def finish(self, state: DragonsGoldState, end: str, events: list[Event]) -> None:
        """The game ends now (``end``: e.g. ``log_full``), scored as it stands: the hoards as
        they are (a treasure still on its dragon is nobody's)."""
        enter(state, OVER)
        no_turn(state)
        state.final = breakdown(state.hoards, state.options["advanced"])
        events.append(
            {"type": "game_over", "end": end, "scores": [r["total"] for r in state.final]}
        )

    def scores(self, state: DragonsGoldState) -> list[float] | None:
        final = state.final
        return None if final is None else [row["total"] for row in final]

    def view_schema(self) -> dict:
        return copy.deepcopy(VIEW_SCHEMA)

    def encode(self, state: DragonsGoldState) -> dict:
        return to_json(state)

    def decode(self, data: dict, common: dict[str, Any]) -> DragonsGoldState:
        return from_json(data, common)

    def statistics(self, state: DragonsGoldState) -> dict:
        stats: dict[str, Any] = dict(state.stats)
        stats["removed"] = count(state.removed)
        stats["tokens"] = [count(h) for h in state.hoards]
        return stats

    def private_items(self, state: DragonsGoldState, seat: int) -> list[Any]:
        return views.private_items(state, seat)

    def hidden_items(self, state: DragonsGoldState) -> list[Any]:
        return views.hidden_items(state)


def token_total(state: DragonsGoldState) -> int:
    """Tokens in the bag, on the dragons, behind the screens and out of the game: always 126."""
    return (
        len(state.bag)
        + sum(count(d.treasure) for d in state.row)
        + sum(count(h) for h in state.hoards)
        + count(state.removed)
    )


KIND = DragonsGoldKind()
