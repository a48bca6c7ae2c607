"""The DAO engine: state, rules, per-seat views (rules: ``../shared/rules/dao.md``).

Play: on your turn *take* the display's first card (nearest the deck) or *turn* the deck's top card
onto the display's far end. A display above 12 after a turn busts: the turning seat takes every
display card, unless the new card's value equals the value of the card it was placed next to
(option ``bust_match="previous"``, the default) or of the row's first card (``"first"``). An empty
display is refilled with 3 cards (as many as remain). The round ends the moment its deck is empty,
whether a player's turn or a refill turned the last card; display cards left then belong to nobody.
Each seat scores its best element: that element's values minus 1 per card of another element.

Decisions (documented here and in the option texts):

- A table cannot stall, so DAO needs no rule for one that stops playing: there is no pass, and
  every action moves at least one card one step along deck → display → pile, never back (a
  take, a turn, a bust, a refill), so a game has at most two actions per card: 120 (tested in
  ``tests/test_table_ends.py``).
- Seat 0 is the youngest player and starts; play goes up the seat numbers (clockwise).
- ``two_rounds`` (``None`` = on for 2 seats, off otherwise): the shuffled deck is split into two
  halves of 30, one per round; each round starts with a fresh display and empty piles; the scores
  of both rounds are added. Round ``r`` is started by seat ``(r - 1) % seats`` (the start passes
  to the left). At a round's end the piles are counted openly, so they become public.
- All chance happens at setup (one shuffle with the game's generator, ``random.Random(seed)``:
  ``games.state``); the state keeps the resulting deck order, so ``(seed, seats, options,
  action log)`` replays the game.

The engine's shape (``games.base``): one phase, ``play``, in which the seat to move may ``take``
or ``turn`` (both declared with no field), then ``over``.
- Hidden information: a seat sees its own pile; of the others, only how many cards they hold. The
  view also carries ``unseen``: how many cards of each element and value have never been face up.
  That is public knowledge (every card reaches a pile through the face-up display, so a table
  with perfect memory knows it), it is what the odds need, and it names no seat's cards. Note that
  with 2 seats it lets a player deduce the opponent's pile, exactly as a perfect memory would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from errors import InvalidInput
from games.actions import bare
from games.base import Action, Event, GameKind, GameType, OptionSpec
from games.dao import cards as C
from games.dao import odds
from games.dao.bots import ALIASES, BOTS
from games.order import TurnOrder, round_robin
from games.phases import Move, Phase
from games.state import OVER, GameState, enter, generator

_OPTIONS = (
    OptionSpec("bust_match", "previous", ("previous", "first")),
    OptionSpec("two_rounds", None, (None, True, False)),
)
#: The game's only phase before the end: the seat to move takes or turns.
PLAY = "play"
Take, Turn = bare("take"), bare("turn")
#: Who plays: up the seat numbers, each round from its own first seat (``games.order``).
TURNS: TurnOrder[DaoState] = round_robin()


@dataclass(kw_only=True)
class DaoState(GameState):
    """Everything about one DAO game. Cards are ids (see ``games.dao.cards``)."""

    #: One deck per round; the top card is the *last* element.
    decks: list[list[int]]
    #: The display, first card (nearest the deck) first.
    display: list[int] = field(default_factory=list)
    #: Per seat, this round's pile in the order taken.
    piles: list[list[int]] = field(default_factory=list)
    round: int = 1
    #: Per finished round: ``{"piles": [[ids]], "left": [ids], "scores": [int]}``.
    finished: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    last_events: list[Event] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.phase == OVER


def _new_stats(seats: int) -> dict:
    return {
        "takes": 0,
        "turns": 0,
        "busts": 0,
        "saves": 0,
        "bust_cards": 0,
        "refills": 0,
        "left_over": 0,
        "longest_display": 0,
        "busts_by_seat": [0] * seats,
    }


_NAME, _VALUE = C.CARD_ELEMENT_NAME, C.CARD_VALUE


def _cards_json(ids: list[int]) -> list[dict]:
    return [{"element": _NAME[c], "value": _VALUE[c]} for c in ids]


def _take_or_turn(state: DaoState, seat: int) -> list[Action]:
    return [{"type": "take"}, {"type": "turn"}]


class DaoKind(GameKind[DaoState]):
    """DAO behind the shared engine shape."""

    snapshot_format = 2

    #: The bot levels' anchors (``GameKind.level_ratings``): each level's mu in
    #: ``python -m games.tournament dao --games 20`` (README, "Bot levels"), rounded.
    level_ratings = {"easy": 10.0, "normal": 26.5, "strong": 39.2}

    def __init__(self) -> None:
        play: Phase[DaoState] = Phase(
            PLAY,
            to_act=TURNS,
            legal=_take_or_turn,
            moves=(Move(Take, self._take), Move(Turn, self._turn)),
        )
        super().__init__(
            GameType("dao", 2, 6, _OPTIONS, chance="seeded", information="imperfect"),
            (play,),
            BOTS,
            ALIASES,
        )

    # --- options and setup ---------------------------------------------------------------

    def resolve_options(self, given: dict | None, seats: int | None = None) -> dict:
        """Defaults filled in; ``two_rounds=None`` becomes ``seats == 2`` when seats is known."""
        opts = super().resolve_options(given, seats)
        if opts["two_rounds"] is None and seats is not None:
            opts["two_rounds"] = seats == 2
        return opts

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> DaoState:
        deck = list(range(C.CARD_COUNT))
        rng.shuffle(deck)
        half = len(deck) // 2
        decks = [deck[:half], deck[half:]] if options["two_rounds"] else [deck]
        return self._start(seats, decks, options, seed, rng)

    def start(self, seats: int, decks: list[list[int]], options: dict, seed: int = 0) -> DaoState:
        """A game from prepared decks (top card last), e.g. a stacked deck in a test scenario."""
        return self._start(seats, decks, options, seed, generator(seed))

    def _start(
        self, seats: int, decks: list[list[int]], options: dict, seed: int, rng: random.Random
    ) -> DaoState:
        state = DaoState(
            seed=seed,
            seats=seats,
            options=dict(options),
            rng=rng,
            phase=PLAY,
            decks=[list(d) for d in decks],
            piles=[[] for _ in range(seats)],
            stats=_new_stats(seats),
        )
        TURNS.start(state, 0)
        events: list[Event] = [{"type": "round_start", "round": 1, "first": 0}]
        self._refill(state, events)
        state.last_events = events
        return state

    # --- the engine ----------------------------------------------------------------------

    def scores(self, state: DaoState) -> list[float] | None:
        return self._totals(state) if state.over else None

    @staticmethod
    def _totals(state: DaoState) -> list[float]:
        """Each seat's points over the finished rounds."""
        return [sum(r["scores"][s] for r in state.finished) for s in range(state.seats)]

    def after_action(
        self, state: DaoState, seat: int | None, action: Action, events: list[Event]
    ) -> None:
        state.last_events = events

    def finish(self, state: DaoState, end: str, events: list[Event]) -> None:
        """The game ends now, scored as it stands: the round in play is scored as if its deck
        had run out (the display and the deck are left over), no later round is played."""
        del state.decks[state.round :]
        self._end_round(state, events)

    def _take(self, state: DaoState, seat: int, action: Any, events: list[Event]) -> None:
        TURNS.pass_turn(state)
        card = state.display.pop(0)
        state.piles[seat].append(card)
        state.stats["takes"] += 1
        events.append(
            {"type": "take", "seat": seat, "card": {"element": _NAME[card], "value": _VALUE[card]}}
        )
        if not state.display:
            self._refill(state, events)

    def _turn(self, state: DaoState, seat: int, action: Any, events: list[Event]) -> None:
        TURNS.pass_turn(state)
        deck, display = state.decks[state.round - 1], state.display
        card = deck.pop()
        match = display[-1] if state.options["bust_match"] == "previous" else display[0]
        display.append(card)
        total = 0
        for c in display:
            total += _VALUE[c]
        stats = state.stats
        stats["turns"] += 1
        if len(display) > stats["longest_display"]:
            stats["longest_display"] = len(display)
        card_json = {"element": _NAME[card], "value": _VALUE[card]}
        events.append({"type": "turn", "seat": seat, "card": card_json, "total": total})
        if total > C.BUST_ABOVE:
            if _VALUE[card] == _VALUE[match]:
                stats["saves"] += 1
                events.append(
                    {
                        "type": "saved",
                        "seat": seat,
                        "card": dict(card_json),
                        "matched": C.card_json(match),
                        "total": total,
                    }
                )
            else:
                stats["busts"] += 1
                stats["bust_cards"] += len(display)
                stats["busts_by_seat"][seat] += 1
                events.append(
                    {"type": "bust", "seat": seat, "cards": _cards_json(display), "total": total}
                )
                state.piles[seat].extend(display)
                display.clear()
        if not deck:
            self._end_round(state, events)
        elif not display:
            self._refill(state, events)

    def _refill(self, state: DaoState, events: list[Event]) -> None:
        """Turn up to 3 cards onto the empty display; the round ends if that empties the deck."""
        deck = state.decks[state.round - 1]
        new = [deck.pop() for _ in range(min(C.DISPLAY_SIZE, len(deck)))]
        state.display.extend(new)
        state.stats["refills"] += 1
        events.append({"type": "refill", "cards": _cards_json(new)})
        if not deck:
            self._end_round(state, events)

    def _end_round(self, state: DaoState, events: list[Event]) -> None:
        scores = [C.pile_score(p) for p in state.piles]
        state.finished.append(
            {"piles": [list(p) for p in state.piles], "left": list(state.display), "scores": scores}
        )
        state.stats["left_over"] += len(state.display)
        events.append(
            {
                "type": "round_end",
                "round": state.round,
                "scores": scores,
                "piles": [_cards_json(p) for p in state.piles],
                "left": _cards_json(state.display),
            }
        )
        state.display = []
        if state.round < len(state.decks):
            state.round += 1
            state.piles = [[] for _ in range(state.seats)]
            first = TURNS.start(state, (state.round - 1) % state.seats)
            events.append({"type": "round_start", "round": state.round, "first": first})
            self._refill(state, events)
        else:
            enter(state, OVER)
            totals = self._totals(state)
            best = max(totals)
            events.append(
                {
                    "type": "game_over",
                    "scores": totals,
                    "winners": [s for s, v in enumerate(totals) if v == best],
                }
            )

    # --- views ---------------------------------------------------------------------------

    def observe(self, state: DaoState, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator). Everything once the game is over.

        Public shape (kept stable for clients): ``display`` (first card first), ``deck`` (cards
        left this round), ``round``, ``players`` (``count`` and ``cards`` or ``null``; also ``seat``;
        where the cards are visible ``element_scores`` and ``score``, the score of the cards
        listed; at the end ``total`` over the rounds and ``round_scores``). Extra keys:
        ``you``, ``to_act``, ``over``, ``rounds``, ``total`` (display sum), ``bust_above``,
        ``unseen`` (per element, counts of never-seen cards by value 0..4), ``unseen_total``,
        ``options``, ``last_events``, ``finished`` (rounds already counted, all cards open),
        ``scores``/``winners`` at the end, ``helper`` (the odds for a seated player in play).
        """
        over = state.over
        players = []
        for s, pile in enumerate(state.piles):
            entry: dict[str, Any] = {"seat": s, "count": len(pile), "cards": None}
            if over or s == seat:
                entry["cards"] = _cards_json(pile)
                entry["element_scores"] = dict(zip(C.ELEMENTS, C.element_scores(pile), strict=True))
                entry["score"] = C.pile_score(pile)
            players.append(entry)
        unseen = [0] * C.TYPE_COUNT
        for deck in state.decks[state.round - 1 :]:
            for c in deck:
                unseen[C.CARD_TYPE[c]] += 1
        nv = len(C.VALUES)
        display = state.display
        out: dict[str, Any] = {
            "game": "dao",
            "display": _cards_json(display),
            "deck": len(state.decks[state.round - 1]) if not over else 0,
            "round": state.round,
            "rounds": len(state.decks),
            "players": players,
            "you": seat,
            "to_act": self.to_act(state),
            "over": over,
            "total": sum(C.CARD_VALUE[c] for c in display),
            "bust_above": C.BUST_ABOVE,
            "unseen": {e: unseen[i * nv : (i + 1) * nv] for i, e in enumerate(C.ELEMENTS)},
            "unseen_total": sum(unseen),
            "options": dict(state.options),
            "actions": state.moves,
            "last_events": [dict(e) for e in state.last_events],
            "finished": [
                {
                    "round": i + 1,
                    "scores": list(r["scores"]),
                    "piles": [_cards_json(p) for p in r["piles"]],
                    "left": _cards_json(r["left"]),
                }
                for i, r in enumerate(state.finished)
            ],
        }
        if over:
            totals = self._totals(state)
            out["scores"] = totals
            out["winners"] = self.winners(state)
            for s, entry in enumerate(players):
                entry["total"] = totals[s]
                entry["round_scores"] = [r["scores"][s] for r in state.finished]
        elif seat is not None:
            pile = state.piles[seat]
            out["helper"] = odds.position_helper(
                odds.Position(
                    g=C.pile_gains(pile),
                    n=len(pile),
                    disp=[(C.CARD_ELEMENT[c], _VALUE[c]) for c in display],
                    pool=unseen,
                    unseen=out["unseen_total"],
                    deck=out["deck"],
                    match_first=state.options["bust_match"] == "first",
                )
            )
        return out

    # --- hidden information (for the generic hidden-information test) ----------------------

    def private_items(self, state: DaoState, seat: int) -> list[Any]:
        """``seat``'s own players entry (its cards listed), exactly as its view shows it.

        A single card is no secret in DAO (it was face up in the display before anyone took it,
        and the public events name it); what a seat alone sees is its pile as a whole. The entry
        carries ``seat``, so it cannot coincide with another seat's entry. Once the game is over
        every view shows every entry.
        """
        return [self.view(state, seat)["players"][seat]]

    def hidden_items(self, state: DaoState) -> list[Any]:
        """The order of the cards not yet turned (top first), per round deck of 6+ cards."""
        if state.over:
            return []
        return [_cards_json(d[::-1]) for d in state.decks[state.round - 1 :] if len(d) >= 6]

    # --- statistics and snapshots --------------------------------------------------------

    def statistics(self, state: DaoState) -> dict:
        """Counters for the simulator: busts, saves by the equal-value exception, takes, turns…"""
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in state.stats.items()}
        out["cards_in_piles"] = sum(len(p) for r in state.finished for p in r["piles"])
        return out

    def encode(self, state: DaoState) -> dict:
        return {
            "decks": [list(d) for d in state.decks],
            "display": list(state.display),
            "piles": [list(p) for p in state.piles],
            "round": state.round,
            "finished": [
                {
                    "piles": [list(p) for p in r["piles"]],
                    "left": list(r["left"]),
                    "scores": list(r["scores"]),
                }
                for r in state.finished
            ],
            "stats": {k: (list(v) if isinstance(v, list) else v) for k, v in state.stats.items()},
            "last_events": [dict(e) for e in state.last_events],
        }

    def decode(self, data: dict, common: dict[str, Any]) -> DaoState:
        state = DaoState(
            **common,
            decks=[list(d) for d in data["decks"]],
            display=list(data["display"]),
            piles=[list(p) for p in data["piles"]],
            round=int(data["round"]),
            finished=[
                {
                    "piles": [list(p) for p in r["piles"]],
                    "left": list(r["left"]),
                    "scores": list(r["scores"]),
                }
                for r in data["finished"]
            ],
            stats={k: (list(v) if isinstance(v, list) else v) for k, v in data["stats"].items()},
            last_events=[dict(e) for e in data["last_events"]],
        )
        if len(state.piles) != state.seats or not 1 <= state.round <= len(state.decks):
            raise InvalidInput("not a DAO state snapshot: seats, piles and round disagree", "state")
        return state


KIND = DaoKind()
