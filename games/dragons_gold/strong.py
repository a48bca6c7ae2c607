"""Dragon's Gold's strong bot: determinized rollouts over a few candidate plays in the fight, and
splits weighed by what they are worth to each seat on the hoards it infers. It reads only its
seat's view.

**What it infers** (``games.dragons_gold.sampling``): the tokens it cannot see (the 126 less its
own hoard, the dragons' treasure, the tokens out of the game and any hoard it sees) lie in the
bag or behind the other screens, whose sizes are public; a share just received, a Crystal
ball's look at an unchanged screen and a hoard shown at the market pin some of them to a
screen; the rest is spread uniformly. A *weigher* (``Weigher``) draws ``SAMPLES`` such
assignments and rates any change of hoards by the seat's **margin**: its score less the best
other seat's (the real scoring, majorities and their ties included), the mean over the draws.
So a gem is worth a majority where the seat is about to win or lose one, and a token given to
the likely leader costs more than one given to a trailing seat.

**The fight.** The candidates are the normal bot's play (``games.dragons_gold.greedy``) and the
next best plays by its own scoring, up to ``CANDIDATES``. Each is tried in the same
*determinizations*: whole states drawn from the view (``sampling.sample_state``: the others'
hoards, the bag's order, the dragons to come, the others' items). In each, the candidate is
applied with the real engine and the game is played to its end, the other seats by the normal
bot and this seat by the normal bot's fight and this module's negotiation (weighing a split by
the public worth of my share, ``PublicWeigher``, so a rollout stays cheap). The moves go through
``games.dragons_gold.playout`` (no service checks, legal actions listed once, a partial view)
and the fight's plays are read from the state (``games.dragons_gold.direct``): the very game
one through ``GameKind.apply`` and whole views plays (the tests' reference), cheaper; a candidate's value
is the mean of its win share (a win shared by k counts 1/k) plus ``POINT_WEIGHT`` × its final
margin. **Sequential halving** (``games.search``) spends ``SETTINGS.rollouts`` rollouts: each
round gives the candidates left the same determinizations, the worse half goes; a candidate
beats the normal bot's play only by more than ``MARGIN`` (noise).

**The negotiation** (a timed negotiation's proposals). Every seat is assumed to accept a share
worth at least its fair share (the treasure's public worth times its part of the attack) less a
patience that grows with the proposals made (the normal level's stated rule: ``p =
min(1, proposals / 4)``); a seat that rejected the standing proposal of mine wants its fair
share. The bot's *demand* starts from the whole treasure and gives each other participant the
tokens that cost its margin least per point of public worth until that seat's need is met; the
split by attack is the other candidate, and the one with the better margin is the demand. It
accepts a standing proposal whose margin is within ``SLACK`` of its demand's, or after
``GIVE_UP`` proposals one better than the treasure leaving the game (then it also proposes the
split by attack); it waits while its own proposal stands unrejected. Division: it picks the lot
with the best margin (and divides as the normal bot does). Market: it accepts an offer that
raises its margin, rejects the others, then leaves. Thefts are the normal bot's.

**The think budget** is the shared search's (``games.search``): a count of rollouts and draws,
never a clock, ``SETTINGS.rollouts`` at full effort unless the ``Thinking`` handed in names
another for ``dragons_gold`` (where the bots run, ``DRAGONS_GOLD_STRONG_ROLLOUTS``, read by the
app at start-up), scaled by its effort: the same view, generator and ``Thinking`` give the same
move (the service seeds each bot move from the game's seed and the move's version); a candidate
clearly worse than the leader drops out of the race early (``bench/strong_bots_bench.py``
prints the CPU p99 and the rollouts spent). A view that does not add up (``sampling.Inconsistent``)
gives the normal bot's move.

**Progress.** Every candidate is a legal move (a play always moves the fight on: the game's end
is argued in ``engine``); a negotiation ends by its clock or its proposal limits whatever the
bot says, and after ``GIVE_UP`` proposals it takes any split better than none.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import SYSTEM, Action, GameKind, get_kind
from games.dragons_gold.data import COLOURS, count, empty, full, sparse
from games.dragons_gold.direct import Fight
from games.dragons_gold.greedy import PATIENCE_PROPOSALS, _play_score, greedy_bot
from games.dragons_gold.playout import play, rollout_view, to_move
from games.dragons_gold.sampling import (
    Inconsistent,
    infer,
    sample_hoards,
    sample_state,
)
from games.dragons_gold.scoring import scores
from games.dragons_gold.splits import token_values, weighted_split, worth
from games.dragons_gold.table import DragonsGoldState
from games.dragons_gold.views import declared_phase
from games.search import (
    Decision,
    Problem,
    Settings,
    lead,
    mean_values,
    search,
    thinker,
    win_share,
)
from games.state import OVER
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

#: A candidate beats the normal bot's play only by more than this (value: win share + points).
MARGIN = 0.02
#: What a point of final margin adds to a rollout's value (its win share counts 1).
POINT_WEIGHT = 0.01
#: A standing proposal within this many margin points of my demand is accepted.
SLACK = 0.5
#: After this many proposals in a negotiation, any split better than none is taken.
GIVE_UP = 10
#: Whether a rollout's seats trade at the market (off: the market closes as its clock would,
#: nobody trading; a market's trades move a score little, and asking every seat at every step
#: took about a third of a rollout's time).
TRADE_IN_ROLLOUTS = False
#: The most actions a rollout plays (a game takes about 120 to 240).
ROLLOUT_ACTIONS = 2_000


#: The most plays compared in the fight ...
CANDIDATES = 3
#: ... and the hoard draws that weigh a split.
SAMPLES = 8
#: The search's settings: 15 rollouts a fight decision at full effort (24 over 4 candidates
#: before the rollouts skipped the market).
SETTINGS = Settings("dragons_gold", 15, MARGIN, Inconsistent)

#: The normal bot draws nothing from its generator; one is handed over all the same.
_NO_CHANCE = random.Random(0)

Deltas = dict[int, dict[str, float]]


class Weigher:
    """Rates a change of hoards by the seat's mean margin over drawn hoards (module doc)."""

    def __init__(self, me: int, advanced: bool, draws: list[list[dict[str, float]]]) -> None:
        self.me = me
        self.advanced = advanced
        self.draws = draws

    @classmethod
    def sampled(cls, view: dict, rng: random.Random, n: int) -> Weigher:
        """``n`` hoard draws consistent with ``view``."""
        inference = infer(view)
        mine = {c: float(k) for c, k in (view["players"][view["me"]]["hoard"] or {}).items()}
        draws = []
        for _ in range(max(1, n)):
            hoards, _ = sample_hoards(inference, rng)
            hoards_f = {s: {c: float(k) for c, k in h.items()} for s, h in hoards.items()}
            hoards_f[view["me"]] = mine
            draws.append([_full(hoards_f[s]) for s in range(view["seats"])])
        return cls(view["me"], view["options"]["advanced"], draws)

    def margin(self, deltas: Deltas) -> float:
        """The mean of my score less the best other's once ``deltas`` (seat → tokens added,
        negative: taken) change the hoards."""
        total = 0.0
        me = self.me
        for draw in self.draws:
            hoards = [dict(h) for h in draw]
            for seat, tokens in deltas.items():
                h = hoards[seat]
                for c, n in tokens.items():
                    h[c] = max(0.0, h[c] + n)
            s = scores(hoards, self.advanced)  # type: ignore[arg-type]
            total += s[me] - max(v for i, v in enumerate(s) if i != me)
        return total / len(self.draws)

    def split_margin(self, shares: dict[str, dict[str, int]]) -> float:
        return self.margin({int(k): {c: float(n) for c, n in v.items()} for k, v in shares.items()})


class PublicWeigher(Weigher):
    """A rollout's cheap weigher: what I gain at the tokens' public worth
    (``splits.token_values``), nobody's hoard drawn."""

    def __init__(self, view: dict) -> None:
        super().__init__(view["me"], view["options"]["advanced"], [])
        self.values = token_values(view["seats"], view["options"]["advanced"])

    def margin(self, deltas: Deltas) -> float:
        return worth(deltas.get(self.me, {}), self.values)

    def split_margin(self, shares: dict[str, dict[str, int]]) -> float:
        """``margin`` of a split read in place: my share's worth (a token count times its
        value is the same float whether the count is an int or a float), the others' shares
        not copied."""
        return worth(shares.get(str(self.me), {}), self.values)


def _full(tokens: dict[str, float]) -> dict[str, float]:
    return {c: float(tokens.get(c, 0)) for c in COLOURS}


# --- the negotiation ---------------------------------------------------------------------------


def _fair(view: dict) -> dict[int, float]:
    neg = view["negotiation"]
    values = token_values(view["seats"], view["options"]["advanced"])
    treasure = view["dragons"][neg["dragon"]]["treasure"]
    total, attack = worth(treasure, values), neg["attack"]
    return {p: total * a / sum(attack) for p, a in zip(neg["participants"], attack, strict=True)}


def _by_attack(view: dict) -> dict[str, dict[str, int]]:
    me, neg = view["me"], view["negotiation"]
    parts, attack = neg["participants"], neg["attack"]
    order = [me] + [p for p in parts if p != me]
    weights = [float(attack[parts.index(p)]) for p in order]
    values = token_values(view["seats"], view["options"]["advanced"])
    return weighted_split(view["dragons"][neg["dragon"]]["treasure"], order, weights, values)


def demand(view: dict, weigher: Weigher, rejecters: set[int]) -> dict[str, dict[str, int]]:
    """The split I propose (module doc): each other participant gets the tokens that cost my
    margin least per point of public worth until its need is met; or the split by attack when
    that is worth more to me, or once ``GIVE_UP`` proposals were made."""
    me, neg = view["me"], view["negotiation"]
    by_attack = _by_attack(view)
    if neg["proposals"] >= GIVE_UP:
        return by_attack
    values = token_values(view["seats"], view["options"]["advanced"])
    patience = min(1.0, (neg["proposals"] + 1) / PATIENCE_PROPOSALS)
    fair = _fair(view)
    shares = {str(p): empty() for p in neg["participants"]}
    shares[str(me)] = full(view["dragons"][neg["dragon"]]["treasure"])
    mine = shares[str(me)]
    for p in neg["participants"]:
        if p == me:
            continue
        need = fair[p] * (1.0 if p in rejecters else 1.0 - patience)
        while worth(shares[str(p)], values) < need - 1e-9 and count(mine):
            base = weigher.split_margin(shares)

            def cost(c: str, p: int = p, base: float = base) -> tuple[float, int]:
                mine[c] -= 1
                shares[str(p)][c] += 1
                loss = base - weigher.split_margin(shares)
                mine[c] += 1
                shares[str(p)][c] -= 1
                return (loss / values[c], COLOURS.index(c))

            colour = min((c for c in COLOURS if mine[c]), key=cost)
            mine[colour] -= 1
            shares[str(p)][colour] += 1
    if weigher.split_margin(by_attack) > weigher.split_margin(shares):
        return by_attack
    return shares


def _propose(shares: dict[str, dict[str, int]]) -> Action:
    return {"type": "propose", "shares": {k: sparse(v) for k, v in shares.items()}}


def negotiate(view: dict, legal: list[Action], weigher: Weigher) -> Action | None:
    """A timed negotiation's move (module doc)."""
    me, neg = view["me"], view["negotiation"]
    proposal = neg["proposal"]
    can_propose = any(a["type"] == "propose" for a in legal)
    if proposal is not None and proposal["by"] == me:
        rejecters = {int(s) for s, said in proposal["answers"].items() if said == "reject"}
        if not rejecters or not can_propose:
            return None
        split = demand(view, weigher, rejecters)
        standing = {k: full(v) for k, v in proposal["shares"].items()}
        return None if split == standing else _propose(split)
    split = demand(view, weigher, set())
    if proposal is not None:
        offered = weigher.split_margin(proposal["shares"])
        fallback = neg["proposals"] >= GIVE_UP or not can_propose
        if offered >= weigher.split_margin(split) - SLACK or (
            fallback and offered >= weigher.margin({})
        ):
            accept = {"type": "accept", "proposal": proposal["number"]}
            return accept if accept in legal else None
    return _propose(split) if can_propose else None


def _pick(view: dict, legal: list[Action], weigher: Weigher) -> Action:
    me, lots = view["me"], view["negotiation"]["lots"]
    picks = [a for a in legal if a["type"] == "pick"]

    def value(a: Action) -> tuple[float, int]:
        lot = {c: float(n) for c, n in lots[a["lot"]].items()}
        return (weigher.margin({me: lot}), -a["lot"])

    best: Action = max(picks, key=value)
    return dict(best)


def _market(view: dict, legal: list[Action], weigher: Weigher) -> Action:
    me = view["me"]
    offers = {o["id"]: o for o in view["market"]["offers"]}
    still = weigher.margin({})
    for action in legal:
        if action["type"] == "accept":
            o = offers[action["offer"]]
            mine = {c: float(o["give"].get(c, 0) - o["get"].get(c, 0)) for c in COLOURS}
            theirs = {c: -n for c, n in mine.items()}
            if weigher.margin({me: mine, o["from"]: theirs}) > still:
                return dict(action)
    for action in legal:
        if action["type"] == "reject":
            return dict(action)
    return {"type": "done"}


# --- the fight: rollouts -----------------------------------------------------------------------


def candidates(view: dict, legal: list[Action], limit: int) -> list[Action]:
    """The normal bot's move first, then the other plays by its own scoring, best first."""
    own = greedy_bot(view, legal, _NO_CHANCE)
    assert own is not None  # the fight always has a play
    values = token_values(view["seats"], view["options"]["advanced"])
    scored: list[tuple[float, int, Action]] = []
    for a in legal:
        if a["type"] == "play" and a != own:
            s = _play_score(view, a, values)
            if s is not None:
                scored.append((-s, len(scored), a))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [own] + [dict(a) for _, _, a in scored][: limit - 1]


def rollout_policy(view: dict, legal: list[Action]) -> Action | None:
    """This seat's play in a rollout: the normal bot's, but this module's negotiation weighed by
    public worth (module doc)."""
    piece = get_kind("dragons_gold").bot_hook(declared_phase(view), "rollout")
    if piece is None:
        return greedy_bot(view, legal, _NO_CHANCE)
    move: Action | None = piece(view, legal)
    return move


def public_proposals(view: dict, legal: list[Action]) -> Action | None:
    """A negotiation's proposal or answer in a rollout, weighed by public worth."""
    return negotiate(view, legal, PublicWeigher(view))


def rollout(kind: GameKind, state: DragonsGoldState, seat: int, action: Action) -> list[float]:
    """Apply ``action`` for ``seat``, play the game out (module doc), and the final scores.
    The moves go through ``playout`` (no service checks, legal actions listed once, a
    partial view) and the fight's plays are read from the state (``direct.Fight``): the same
    game as through ``GameKind.apply`` and whole views (``tests/test_dragons_gold_cheap.py``
    holds them equal), cheaper."""
    play(kind, state, seat, action)
    fight = Fight(state.seats, state.options["advanced"])
    for _ in range(ROLLOUT_ACTIONS):
        if state.phase == OVER:
            break
        if state.phase == "market" and not TRADE_IN_ROLLOUTS:
            kind.apply(state, SYSTEM, kind.timeout_action(state, state.rng))
            continue
        found = next(to_move(kind, state), None) if state.phase == "fight" else None
        if found is not None:  # the normal bot's play for every seat, this one's too
            play(kind, state, found[0], fight.move(state, found[0], found[1]))
            continue
        for actor, legal in to_move(kind, state):
            view = rollout_view(state, actor)
            if actor == seat:
                move = rollout_policy(view, legal)
            else:
                move = greedy_bot(view, legal, _NO_CHANCE)
            if move is not None:
                play(kind, state, actor, move)
                break
        else:
            kind.apply(state, SYSTEM, kind.timeout_action(state, state.rng))
    return scores(state.hoards, state.options["advanced"])


def evaluate(final: list[float], seat: int) -> float:
    """A rollout's value: the win share (ties shared) plus ``POINT_WEIGHT`` × ``lead`` (the
    seat's score less the best other seat's)."""
    return win_share(final, seat) + POINT_WEIGHT * lead(final, seat)


Value = Callable[[list[float], int], float]


def values(
    view: dict, moves: list[Action], rng: random.Random, each: int, value: Value = evaluate
) -> list[float] | None:
    """Every move's mean ``value`` over the same ``each`` determinizations (``None``: the view
    does not add up): the comparison the review's analysis makes."""
    kind = get_kind("dragons_gold")
    seat = view["me"]
    return mean_values(
        moves,
        rng,
        each,
        lambda move, world: value(rollout(kind, sample_state(view, world), seat, move), seat),
        Inconsistent,
    )


def _fight(view: dict, legal: list[Action], rng: random.Random, thinking: Thinking) -> Decision:
    moves = candidates(view, legal, CANDIDATES)
    kind = get_kind("dragons_gold")
    seat = view["me"]
    problem: Problem[DragonsGoldState] = Problem(
        moves,
        lambda r: sample_state(view, r),
        lambda state, move: evaluate(rollout(kind, state, seat, move), seat),
    )
    return search(SETTINGS, problem, rng, thinking)


def choose(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action | None:
    """The strong bot's move (module doc): the running phase's piece (``Phase.bot["strong"]``,
    declared with the phase in ``games.dragons_gold.engine``), each ``piece(view, legal, rng,
    thinking)``; a phase without one, or a view that does not add up: the greedy move."""
    piece = get_kind("dragons_gold").bot_hook(declared_phase(view), "strong")
    try:
        if piece is not None:
            move: Action | None = piece(view, legal, rng, thinking)
            return move
    except Inconsistent:
        pass
    return greedy_bot(view, legal, rng)


def fight(view: dict, legal: list[Action], rng: random.Random, thinking: Thinking) -> Action:
    """A fight's play: the shared search over the candidates (``_fight``)."""
    return _fight(view, legal, rng, thinking).move


def proposals(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking
) -> Action | None:
    """A negotiation's proposal or answer, weighed on sampled hoards (``negotiate``)."""
    return negotiate(view, legal, Weigher.sampled(view, rng, SAMPLES))


def pick(view: dict, legal: list[Action], rng: random.Random, thinking: Thinking) -> Action:
    """The lot that raises the margin most on sampled hoards (``_pick``)."""
    return _pick(view, legal, Weigher.sampled(view, rng, SAMPLES))


def market(view: dict, legal: list[Action], rng: random.Random, thinking: Thinking) -> Action:
    """A trade weighed on sampled hoards (``_market``)."""
    return _market(view, legal, Weigher.sampled(view, rng, SAMPLES))


@thinker
def strong_bot(
    view: dict, legal: list[Action], rng: random.Random, thinking: Thinking = DEFAULT_THINKING
) -> Action | None:
    """The ``strong`` level: ``choose`` within ``thinking``'s budget."""
    return choose(view, legal, rng, thinking)
