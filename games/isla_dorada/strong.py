"""Isla Dorada's ``strong`` level, a search bot (``games.isla_dorada.strong_trial`` measures it
against the planner; the README has the figures). Determinized short rollouts of a few
candidate bids and draws, judged by the real engine and a fitted estimate of the final scores,
the planner's move kept unless another is clearly better; at the setup and the cable news, the
goal cards a fitted estimate values most (``games.isla_dorada.keeping``). It reads only its
seat's view.

**A decision.** In an auction (the choice that steers the expedition, and what it costs) the bot
lists a few *candidates*: the planner's own move (``games.isla_dorada.planner``, the ``normal``
level), a pass, and the bid forms the planner values best after it (``planner.bid_gain``); in a
draw, the planner's card, the deck's top (and, offered a purchase, none) and the face-up cards
the planner would use most (``Mind.card_use``); at the setup and a cable news it keeps the goal
cards ``keeping.best`` values most; at every other step it plays the planner's move.
Each candidate is tried in the same ``SETTINGS.rollouts`` *determinizations*: whole states sampled
from the view (``games.isla_dorada.sampling``: the other hands, the decks, and the others' goal
cards drawn from what the view lets it infer, ``games.isla_dorada.inference``: how the planner
comes by its cards, the places reached while it held them, the destinations it chose). In each,
the candidate is applied with the real engine, then every seat (this one too) plays the
planner's moves to the end of the round's treasures (the auction, the payment, the move, the
curses, the treasures; or the game's end), and for a draw to the end of the next round's
treasures (a card drawn pays only in a later auction), and the position is valued for each seat
by ``estimate``: a linear estimate of its final score from its score so far, its treasures and
curses in hand by their distance from the expedition, its mission's progress, its cards and
gold, some weighed by the markers left (``FEATURES``; the weights in ``data/strong_value.json``
were fitted on games of four planners, ``games.isla_dorada.value_fit``). A candidate's value is
its estimate less the best other seat's. Another candidate replaces the planner's move only when
its values beat the planner's, rollout by rollout on the same states, by more than ``MARGIN`` on
average and ``Z`` standard errors of that paired difference (a one-sided test: noise does not
steer).

**The keeps** were the largest gain: the planner's setup rule keeps no better than a random
choice (``keeping``), and no search ever reached the setup. With the fitted keeps the bot won
0.410 and 0.436 of ``strong_trial``'s games 2000-2199 and 2200-2399 (0.423 ± 0.048 over 400,
a margin of -1.8; the planner in the same seats 0.256 and -6.2). Everything measured below is
the bot before the keeps (the planner's setup and news).

**What was measured** (``games.isla_dorada.strong_trial``, 200 games; the README has the
figures; the bids' search alone, before the draws were searched). With the whole state known (a
diagnostic, not a bot: it cheats) these rollouts won 0.475 of 100 games against three planners,
so the search and the estimate can tell good bids. From uniformly sampled hidden cards they lost
to the planner (the rollouts' other seats chase places of random goal cards); weighing only the
standing bids won no more than the planner in its seat (0.247 against 0.233); the others' goal
cards inferred from every round's choices (``inference``) won 0.309 against the planner's 0.233
in the same seats (games 0-199), 0.273 against 0.258 in the next 200 and 0.307 against 0.230 in
the 200 after (600 games: 0.296 against 0.240); the bench's row (``bench/strong_bots_bench.py
--only isla_dorada-4``, games 0-399) 0.313 ± 0.045.

**Where the rest of the gap is** (games 0-199, this bot's 0.309 the baseline; diagnostics that
put parts of the true state into every sampled state). The other seats' adventure hands true and
their goal cards inferred: 0.312; their goal cards true and their hands drawn: 0.334; both true:
0.467. Neither part alone carries the gain: the rollouts foresee an auction only when they know
both what each seat wants and what it can pay. Dealing each hand the cards the table saw it take
face up (and has not seen leave it) won 0.309 on games 0-199 and 0.244 on 200-399: no gain. Nor
did a bigger budget or a looser test (games 0-199): 48 rollouts 0.322, 4 candidates 0.287, 4
times the holdings 0.304, ``Z`` 1.0 with ``MARGIN`` 0 0.300, rollouts to the end of the next
round's treasures 0.302. The one lead: searching the draws too (the planner's draw and the two
next by its use of the card, rolled out to the end of the next round's treasures) won 0.333 on
games 0-199 and 0.298 on 200-399, +0.025 over those 400 games (within their noise) for about
three times the CPU a game; adopted once the bench's row, on other deals, gave the same gain:
0.336 ± 0.046 against the bids' search alone's 0.313 (a searched decision's CPU p99 205 ms).
Twice the rollouts with the draws searched (32, the same row) won 0.343 ± 0.047 for twice
the think time (p99 394 ms): within the noise of 16's, so the default stays 16.
On games 400-799 (``strong_trial``, 200-game halves) the default won 0.362 ± 0.047 against the
planner's 0.274 in the same seats: over games 0-799 0.349 ± 0.033. The bench's row over games
0-999 (``--games 1000``): 0.342 ± 0.029, short of the 0.35 target.
Which seats carry the gap (games 0-199): the true hands and goal cards of the seats still
bidding (the high bidder too) won 0.432, those of the seats that passed 0.323. A planner that
passed never bids at its next turn on the true state (0 of 272 times), but would in 43 % of the
states drawn from the view; rolling out only states in which every seat that passed would pass
again (up to four draws per rollout) still won 0.294 on games 0-199 and 0.275 on 200-399: no
gain. What is missing is what the seats still bidding can pay, which their spoken bids barely
tell. Nor did the same test for the seats still bidding: would the planner in each bidder's
seat, with the sampled hand and goal cards, facing the bid that stood before its own, have bid
the same form? On planners' games the true state says yes for every bidder in 97 % of the
positions, a state drawn from the view in 15 %; keeping, of four times as many states drawn,
the 16 that best explain the bids (a weighted draw without replacement, 0.1 a bid unexplained)
won 0.352 on games 0-199, 0.362 on 200-399 and 0.273 on 400-599 (this bot: 0.333, 0.298,
0.362) and the bench's row 0.339 ± 0.046 (this bot's 0.336), a searched decision's CPU p99 270
ms: no gain, not adopted. A hand that bids the same form need not raise as the true one
would. Nor did two changes to the bids' search (before the draws were searched; games of
``strong_trial``'s kind): valuing a position by its chance to win (the estimates' spread by the
markers left) instead of its margin won 0.268 on games 0-199; the planner's draws made thriftier
(no purchase, a face-up card taken from a use of 0.7) won the planner's own seat 0.270 against
0.257 over 8,000 games, but the bids' search with them only 0.265 on games 0-399 (the search
alone about 0.291).

**The think budget** is the shared search's (``games.search``): a count of rollouts per
candidate, never a clock, ``SETTINGS.rollouts`` at full effort unless the ``Thinking`` handed in
names another for ``isla_dorada`` (where the bots run, ``ISLA_DORADA_STRONG_ROLLOUTS``, read by the app
at start-up), scaled by its effort: the same view, generator and ``Thinking`` give the same
move; a candidate clearly worse than the leader drops out of the race early. A view the sampler cannot add up (``sampling.Inconsistent``) gives the
planner's move.

**Cheaper, the same computation.** The search samples each seed's state once and gives every
candidate a copy (``fast.copy_state``); inside a rollout the planner reads a lean view
(``fast.planner_view``) and the moves are applied without the checks a legal action always
passes (``games.isla_dorada.playout``); the planner remembers outlooks and cheapest payments.
The moves and every rollout's value are those of the full views, fresh samples and checked
moves (``tests/test_isla_dorada_cheap.py``).

**Progress.** Every candidate is a legal move and the planner's is the default; whatever the
bot bids, the round ends and the expedition moves (every auction has a winner), so a table
of strong bots ends.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

from games.base import Action, GameKind, get_kind
from games.isla_dorada import tables as T
from games.isla_dorada.fast import copy_state, planner_view
from games.isla_dorada.planner import Mind, baseline, bid_gain, plan
from games.isla_dorada.playout import play
from games.isla_dorada.sampling import Inconsistent, goal_belief, sample_state
from games.isla_dorada.scoring import achieved, breakdown, mission_progress
from games.isla_dorada.state import IslaState
from games.search import Decision, Problem, Settings, budget, search, thinker
from games.state import OVER
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

#: Another candidate replaces the planner's move only if it beats it by more than this many
#: points of value on average over the rollouts ...
MARGIN = 0.1
#: ... and by more than this many standard errors of the paired difference.
Z = 1.5
#: How many holdings of each other seat's goal cards are drawn per rollout (the default
#: budget's 16 rollouts: ``inference.PARTICLES``, 64).
HOLDINGS_PER_ROLLOUT = 4

#: The estimate's features of a seat's position (``features``), in the order of its weights.
FEATURES = (
    "one",
    "score",
    "gold_left",
    "t0",
    "t1",
    "t2",
    "t3",
    "t4",
    "t1L",
    "t2L",
    "t3L",
    "t4L",
    "c01",
    "c2",
    "c01L",
    "bonusfit",
    "dprog",
    "dopenL",
    "dopen",
    "hand",
    "wild",
    "handL",
)
_WEIGHTS_FILE = Path(__file__).parent / "data" / "strong_value.json"
WEIGHTS: tuple[float, ...] = tuple(
    json.loads(_WEIGHTS_FILE.read_text())["weights"][name] for name in FEATURES
)


#: The most candidates compared.
CANDIDATES = 3
#: The search's settings: 5 rollouts per candidate at full effort (16 before the search
#: raced), every candidate the same states (one round), the paired test (``MARGIN``, ``Z``) to
#: replace the planner's move.
SETTINGS = Settings("isla_dorada", 5, MARGIN, Inconsistent, z=Z, halving=False, per_candidate=True)


def features(state: IslaState, seat: int) -> list[float]:
    """The seat's position as ``FEATURES`` names it: its score so far, its gold by the share
    of markers left (``L``), its treasure points in hand by routes from the expedition (0 … 4,
    4 also for a place no route reaches; 1 … 4 again by the markers left), its curse points
    within a route and farther, the bonus points in hand of its treasures' families, its
    mission's points by its progress and (not achieved) by the markers left and alone, its
    adventure cards' value, its wild cards, and the value by the markers left."""
    left = state.markers_left / T.MARKERS
    here = state.location
    near = [0.0] * 5
    families = set()
    for g in state.treasures[seat]:
        d = T.DIST[here][T.GOAL_LOC[g]]
        near[4 if d < 0 else min(d, 4)] += T.GOAL_POINTS[g]
        families.add(T.LOC_FAMILY[T.GOAL_LOC[g]])
    close = far = 0.0
    for g in state.curses[seat]:
        d = T.DIST[here][T.GOAL_LOC[g]]
        if 0 <= d <= 1:
            close += T.GOAL_POINTS[g]
        else:
            far += T.GOAL_POINTS[g]
    hand = state.hands[seat]
    bonus = sum(
        T.ADV_POINTS[c] for c in hand if T.ADV_KIND[c] == "bonus" and T.ADV_FAMILY[c] in families
    )
    progress = open_points = 0.0
    card = state.destiny[seat]
    if card >= 0 and not achieved(state, seat):
        done, needed = mission_progress(state, seat, card)
        progress = T.GOAL_POINTS[card] * min(done, needed) / max(needed, 1)
        open_points = T.GOAL_POINTS[card]
    value = float(sum(T.ADV_VALUE[c] for c in hand))
    wild = float(sum(1 for c in hand if T.ADV_WILD[c]))
    return [
        1.0,
        float(breakdown(state, seat)["total"]),
        state.gold[seat] * left,
        *near,
        *(n * left for n in near[1:]),
        close,
        far,
        close * left,
        float(bonus),
        progress,
        open_points * left,
        open_points,
        value,
        wild,
        value * left,
    ]


def estimate(state: IslaState, seat: int) -> float:
    """The seat's final score: the score itself once the game is over, else the fitted
    estimate (``WEIGHTS`` times ``features``)."""
    if state.phase == OVER:
        return float(breakdown(state, seat)["total"])
    return math.fsum(w * f for w, f in zip(WEIGHTS, features(state, seat), strict=True))


def evaluate(state: IslaState, seat: int) -> float:
    """The seat's estimate less the best other seat's."""
    values = [estimate(state, s) for s in range(state.seats)]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


#: The generator handed to the planner, never drawn from (``planner.plan`` is deterministic):
#: one for all its moves, not a new one seeded for each.
_UNUSED = random.Random(0)


def planner_move(view: dict, legal: list[Action]) -> Action:
    """The planner's move (it is deterministic: its generator is never drawn from)."""
    return plan(view, legal, _UNUSED)


def candidates(view: dict, legal: list[Action], limit: int) -> list[Action]:
    """The moves worth comparing at this step, the planner's first; one move: no choice worth
    a search (or not a step the bot searches: the running phase declares no
    ``Phase.bot["candidates"]`` piece, ``games.isla_dorada.engine``)."""
    own = planner_move(view, legal)
    piece = get_kind("isla_dorada").bot_hook(view["phase"], "candidates")
    if len(legal) == 1 or piece is None:
        return [own]
    result: list[Action] = piece(view, legal, own, limit)
    return result


def bid_candidates(view: dict, legal: list[Action], own: Action, limit: int) -> list[Action]:
    """An auction's candidates: the planner's, a pass, then the bid forms the planner values
    best after it (``planner.bid_gain``), ``limit`` in all."""
    out = [own]
    if {"type": "pass"} in legal and own != {"type": "pass"}:
        out.append({"type": "pass"})
    mind = Mind(view)
    base = baseline(mind, view)
    ranked = []
    for i, a in enumerate(legal):
        if a["type"] == "bid" and a != own:
            gain = bid_gain(mind, a, base)
            if gain is not None:
                ranked.append((-gain, i))
    ranked.sort()
    out += [dict(legal[i]) for _, i in ranked[: max(0, limit - len(out))]]
    return out


def draw_candidates(view: dict, legal: list[Action], own: Action, limit: int) -> list[Action]:
    """A draw's candidates: the planner's, then the deck's top (and, buying, no purchase), then
    the face-up cards by the planner's use of them (``Mind.card_use``), ``limit`` in all."""
    out = [own]
    plain = [a for a in legal if a.get("deck") or a["type"] == "done"]
    out += [dict(a) for a in plain if a != own]
    mind = Mind(view)
    display = {c["id"]: c for c in view["display"]}
    ranked = sorted(
        (a for a in legal if "card" in a and a != own),
        key=lambda a: -mind.card_use(display[a["card"]]),
    )
    out += [dict(a) for a in ranked]
    return out[:limit]


#: The phases of a round after its treasures (a rollout stops at the first).
_AFTER_TREASURES = frozenset({"news", "draw", "lightning", "limit"})


def rollout(kind: GameKind, state: IslaState, seat: int, action: Action) -> float:
    """Apply ``action`` for ``seat``, then the planner's moves for everyone to the end of the
    treasures of this round (a bid) or of the next (a draw), or the game's end, and the value
    reached (``evaluate``)."""
    horizon = state.round + (state.phase == "draw")
    kind.apply(state, seat, action)
    while state.phase != OVER and not (
        state.round > horizon or (state.round == horizon and state.phase in _AFTER_TREASURES)
    ):
        actor = kind.to_act(state)[0]
        legal = kind.legal_actions(state, actor)
        move = (
            legal[0] if len(legal) == 1 else planner_move(planner_view(kind, state, actor), legal)
        )
        play(kind, state, actor, move)
    return evaluate(state, seat)


def clearly_better(values: list[float], default: list[float]) -> bool:
    """Whether ``values`` beat ``default`` (rollout by rollout, on the same states) by more
    than ``MARGIN`` on average and ``Z`` standard errors of the paired difference."""
    diffs = [a - b for a, b in zip(values, default, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= MARGIN:
        return False
    if n < 2:
        return False
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return se == 0.0 or mean > Z * se


def values(
    view: dict, moves: list[Action], rng: random.Random, rollouts: int
) -> list[list[float]] | None:
    """Per move, its value (``rollout``) in each of ``rollouts`` states sampled from ``view``,
    the same states for every move (``None``: a view the sampler cannot add up)."""
    kind = get_kind("isla_dorada")
    seat = view["you"]
    seeds = [rng.randrange(2**63) for _ in range(rollouts)]
    try:
        belief = goal_belief(
            view, random.Random(rng.randrange(2**63)), HOLDINGS_PER_ROLLOUT * rollouts
        )
        return [
            [rollout(kind, sample_state(view, random.Random(s), belief), seat, move) for s in seeds]
            for move in moves
        ]
    except Inconsistent:
        return None


def choose(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Decision:
    """The strong bot's decision (module doc): where the running phase declares the strong
    bot's own choice (``Phase.bot["strong"]``: at a setup or a cable news, the fitted keep,
    ``keeping.best``), that; else the shared search (``games.search``: every candidate on the same
    sampled states, one round, raced) and the candidate that clearly beats the planner's by the
    most (its mean over the rollouts), or the planner's."""
    own = get_kind("isla_dorada").bot_hook(view["phase"], "strong")
    if len(legal) > 1 and own is not None:
        return Decision(own(view, legal))
    moves = candidates(view, legal, CANDIDATES)
    granted = budget(SETTINGS, thinking, len(moves))
    if len(moves) == 1 or granted < 2 * len(moves):
        return Decision(moves[0])  # one rollout never passes the paired test
    kind = get_kind("isla_dorada")
    seat = view["you"]
    per = granted // len(moves)
    try:
        belief = goal_belief(view, random.Random(rng.randrange(2**63)), HOLDINGS_PER_ROLLOUT * per)
    except Inconsistent:
        return Decision(moves[0])
    problem: Problem[IslaState] = Problem(
        moves,
        lambda r: sample_state(view, r, belief),
        lambda state, move: rollout(kind, state, seat, move),
        copy_state,
    )
    return search(SETTINGS, problem, rng, thinking, granted)


@thinker
def strong_bot(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action:
    """The strong bot: ``choose`` within ``thinking``'s budget."""
    return choose(view, legal, rng, thinking).move
