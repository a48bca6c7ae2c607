"""The strong Tobago bot: determinized rollouts over a few candidate moves, judged by the real
engine. It reads only its seat's view.

**A decision.** At a choice that matters (a turn's first action, an extra clue play or the extra
marker, a first clue's map, a sharing's accept or decline) the bot lists a few *candidates*:
the strategic bot's own move (``games.tobago.strategy``, the ``normal`` level), the best clue
plays by the solver's ranking (``solver.hints``), the extra markers, a raise, an exchange,
picking an amulet, ending a turn of clue plays (never a pass); at other steps (placing the ATV,
a drive's small steps) it plays the strategic move. Each candidate is tried in the same
*determinizations*: whole states sampled from the view (``games.tobago.sampling``: the others'
hands, the decks' order, the sharing pile drawn consistently with what the seat sees). In each,
the candidate is applied with the real engine, then every seat (this one too) plays the
strategic bot's moves for ``HORIZON`` turns (or to the end: read straight from the sampled state
by ``games.tobago.direct``, the same choices without a view built and parsed per move), and the
position is scored:
for each seat its gold plus what its compass markers on the columns are expected to bring
(``games.tobago.shares.share_gold`` by the map's candidate count) plus ``AMULET_GOLD`` per
amulet; the bot's *value* is its score less the best other seat's. Candidates are compared by
**sequential halving** on a fixed number of rollouts: each round gives the candidates left the
same determinizations, the worse half goes; the best mean value is played. Each
determinization is sampled once and every candidate plays a copy of it (``state.copy_state``:
the same world, a fraction of a sampling's cost).

**The think budget** is the shared search's (``games.search``): a count of rollouts, never a
clock, ``SETTINGS.rollouts`` at full effort unless the ``Thinking`` handed in names another for
``tobago`` (where the bots run, ``TOBAGO_STRONG_ROLLOUTS``, read by the app at start-up), scaled
by its effort: the same view, generator and ``Thinking`` give the same move (the service seeds
each bot move from the game's seed and the move's version, so replays and retries agree); a
candidate clearly worse than the leader drops out of the race early
(``bench/strong_bots_bench.py`` prints the CPU p99 and the rollouts spent). A state
the view does not add up to (``sampling.Inconsistent``) gives the strategic move.

**Progress.** Every candidate is a legal move and the strategic move is always the first; a
candidate is preferred to it only when its mean value is higher by more than ``MARGIN`` (noise);
a pass at a turn's start is never a candidate; and when the table made no progress since the
bot's previous turn (``stalled``) it plays the strategic move, which moves the game on when it
can.
"""

from __future__ import annotations

import random

from games.base import Action, GameKind, get_kind
from games.search import Decision, Problem, Settings, mean_values, search, thinker
from games.state import OVER
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking
from games.tobago.direct import next_move
from games.tobago.playout import play
from games.tobago.rules import TREASURE_VALUES
from games.tobago.sampling import Inconsistent, Sampler, sample_state
from games.tobago.shares import share_gold
from games.tobago.state import TobagoState, copy_state
from games.tobago.strategy import Position, _hints, strategic_bot

#: What an amulet in hand is worth, in gold (it buys a move, a play or a curse's protection).
AMULET_GOLD = 0.5
#: A candidate beats the strategic move only by more than this (gold of value, mean).
MARGIN = 0.05
#: The most clue plays tried (the solver's best first).
PLAYS = 4


#: Rollouts are this many turns long (``None``: to the game's end) ...
HORIZON: int | None = 6
#: ... over at most this many candidates.
CANDIDATES = 6
#: The search's settings: 96 rollouts a decision at full effort (36 played 0.715 ± 0.088 heads-up
#: against normal over 100 games, below the 0.875 ± 0.032 of 96: kept for its strength).
SETTINGS = Settings("tobago", 96, MARGIN, Inconsistent)


#: The strategic bot draws nothing from its generator; one is handed over all the same.
_NO_CHANCE = random.Random(0)


def strategic_move(view: dict, legal: list[Action]) -> Action:
    """The strategic bot's move (it is deterministic)."""
    return strategic_bot(view, legal, _NO_CHANCE)


def candidates(view: dict, legal: list[Action], limit: int) -> list[Action]:
    """The moves worth comparing at this step, the strategic move first; one move: no choice
    worth a search; a phase without a ``Phase.bot["candidates"]`` piece (placing the ATV,
    ``games.tobago.kind``): the strategic move alone."""
    if len(legal) == 1:
        return [dict(legal[0])]
    own = strategic_move(view, legal)
    piece = get_kind("tobago").bot_hook(view["phase"], "candidates")
    if piece is None:
        return [own]
    result: list[Action] = piece(view, legal, own, limit)
    return result


def every_answer(view: dict, legal: list[Action], own: Action, limit: int) -> list[Action]:
    """A sharing's candidates: the strategic answer and the other."""
    return [own] + [a for a in legal if a != own]


def first_clues(view: dict, legal: list[Action], own: Action, limit: int) -> list[Action]:
    """A first clue's candidates: the strategic map, then the others, ``limit`` in all."""
    return [own] + [a for a in legal if a != own][: limit - 1]


def turn_moves(view: dict, legal: list[Action], own: Action, limit: int) -> list[Action]:
    """A turn's candidates (module doc); a drive's small steps: the strategic one alone."""
    if view["turn"]["mode"] == "drive":
        return [own]
    out = [own]
    kinds = {a["type"] for a in legal}
    if "play_clue" in kinds:
        ranked = _hints(Position(view))
        hand = view["players"][view["seat"]]["hand"]
        for h in ranked[:PLAYS]:
            out.append({"type": "play_clue", "card": hand[h.hand_index]["id"], "map": h.map})
    out += [a for a in legal if a["type"] == "extra_marker"]
    finishing = ("end_turn",) if view["turn"]["mode"] == "clues" else ()  # never a pass
    for kind in ("raise", "exchange", "pick_amulet", *finishing):
        if kind in kinds:
            out.append(next(a for a in legal if a["type"] == kind))
    unique: list[Action] = []
    for a in out:
        if a not in unique and a in legal:
            unique.append(a)
    return unique[:limit]


#: Public events that move a game on (a clue, a marker placed or removed, a raise).
PROGRESS = frozenset(
    {"clue_played", "extra_marker", "marker_removed", "raised", "first_clue", "map_restarted"}
)


def stalled(view: dict) -> bool:
    """Whether the table made no progress since this seat's previous turn began (the view's
    log shows it): then the bot plays the strategic move, which moves the game on when it can,
    and never searches its way into another round of waiting."""
    seat = view["seat"]
    turns = [i for i, e in enumerate(view["log"]) if e["type"] == "turn" and e["seat"] == seat]
    if len(turns) < 2:
        return False
    return not any(e["type"] in PROGRESS for e in view["log"][turns[-2] :])


def _value(state: TobagoState, seat: int) -> float:
    """A seat's gold, its markers' expected shares and its amulets (module doc)."""
    p = state.players[seat]
    gold = float(sum(TREASURE_VALUES[c] for c in p.treasures))
    if state.phase == OVER:
        return gold
    for m in state.maps:
        n = sum(e.markers for e in m.clues if e.seat == seat) + (1 if m.raiser == seat else 0)
        if n:
            gold += n * share_gold(m.candidates.bit_count())
    return gold + AMULET_GOLD * p.amulets


def evaluate(state: TobagoState, seat: int) -> float:
    """The seat's value less the best other seat's."""
    mine = _value(state, seat)
    return mine - max(_value(state, s) for s in range(state.seats) if s != seat)


def rollout(
    kind: GameKind, state: TobagoState, seat: int, action: Action, horizon: int | None
) -> float:
    """Apply ``action`` for ``seat``, then strategic moves for everyone until ``horizon`` more
    turns have begun (``None``: the end; ``0``: the end of the running sharing), and the value
    reached."""
    start = state.turn_number
    kind.apply(state, seat, action)  # checked: a candidate is the view's legal move
    while state.phase != OVER:
        if horizon == 0 and state.phase != "sharing":
            break
        if horizon is not None and state.turn_number >= start + horizon and _turn_start(state):
            break
        actor, move = next_move(kind, state)
        play(kind, state, actor, move)
    return evaluate(state, seat)


def _turn_start(state: TobagoState) -> bool:
    return state.phase == "turn" and state.stage is None


def horizon_of(view: dict, turns: int | None = None) -> int | None:
    """How far a rollout goes from this view: ``turns`` turns (default ``HORIZON``), or where
    the running phase's ``Phase.bot["horizon"]`` piece says (a sharing's answer: to the
    sharing's end)."""
    piece = get_kind("tobago").bot_hook(view["phase"], "horizon")
    if piece is None:
        return HORIZON if turns is None else turns
    horizon: int | None = piece(view)
    return horizon


def to_the_sharing_end(view: dict) -> int:
    """A sharing's rollouts end with the sharing (``rollout``'s horizon 0)."""
    return 0


def values(
    view: dict, moves: list[Action], rng: random.Random, each: int, horizon: int | None
) -> list[float] | None:
    """Every move's mean value over the same ``each`` determinizations (``None``: the view does
    not add up to the game's cards): the comparison the review's analysis makes."""
    kind = get_kind("tobago")
    seat = view["seat"]
    return mean_values(
        moves,
        rng,
        each,
        lambda move, world: rollout(kind, sample_state(view, world), seat, move, horizon),
        Inconsistent,
    )


def choose(
    view: dict,
    legal: list[Action],
    rng: random.Random,
    thinking: Thinking = DEFAULT_THINKING,
) -> Decision:
    """The strong bot's decision (module doc): the shared search (``games.search``) over the
    candidates, the strategic move when the table stalled."""
    moves = candidates(view, legal, CANDIDATES)
    if stalled(view):
        return Decision(moves[0])
    kind = get_kind("tobago")
    horizon = horizon_of(view)
    seat = view["seat"]
    problem: Problem[TobagoState] = Problem(
        moves,
        Sampler(view),
        lambda state, move: rollout(kind, state, seat, move, horizon),
        copy_state,
    )
    return search(SETTINGS, problem, rng, thinking)


@thinker
def strong_bot(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action:
    """The ``strong`` level: ``choose`` within ``thinking``'s budget."""
    return choose(view, legal, rng, thinking).move
