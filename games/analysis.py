"""Analysis of a finished game: each decision of each seat against the engine's best move.

For every action a seat took with a real choice (more than one legal action), the game's
``Analyst`` judges, **from that seat's view at that moment only** (``GameKind.view``: never the
state, never a later position), how good the move was in the game's own engine score: the value
of the move made, the value of the best move the engine would have chosen, and their difference,
the *loss*. The loss is marked by the game's documented ``Thresholds``:

- ``best``: the move made is worth as much as the best (loss within the engine's rounding);
- ``good``: loss at most ``good``;
- ``inaccuracy``: loss at most ``inaccuracy``;
- ``mistake``: a bigger loss.

Each seat also gets a per-step *expected* value (its expected gold or score, from its own view at
that step) for the chart, and a summary (decisions, rated decisions, marks, share of best moves,
average loss). A game's analyst may leave a decision unrated (``judge`` returns ``None``) when its
engine has no score for that kind of choice; such decisions are counted, not marked.

The analysis is reproducible: a pure function of the record (and ``ANALYSIS_VERSION``, raised
whenever an analyst changes its scores), with no clock and no unseeded randomness, values
rounded to ``DIGITS`` decimals.

Games give their piece as a module ``games/<game>/analysis.py`` exposing ``ANALYST``; the caller
hands it to ``analyse`` (the service finds it on the game's descriptor, ``GameSite.analyst`` in
the web layer). A game without one still has positions, views and full views
(``games.review``); its analysis is unavailable.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import Action, get_kind
from games.review import GameLog, walk

#: Raised whenever an analyst's scores or thresholds change: stored analyses of an older
#: version are recomputed.
ANALYSIS_VERSION = 7
MARKS = ("best", "good", "inaccuracy", "mistake")
DIGITS = 3

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Thresholds:
    """Loss limits in the engine's unit: ``loss <= best`` is best (ties and rounding), then
    ``good``, then ``inaccuracy``; above that a mistake."""

    good: float
    inaccuracy: float
    best: float = 1e-6

    def mark(self, loss: float) -> str:
        if loss <= self.best:
            return "best"
        if loss <= self.good:
            return "good"
        if loss <= self.inaccuracy:
            return "inaccuracy"
        return "mistake"

    def to_json(self) -> dict[str, float]:
        return {"best": self.best, "good": self.good, "inaccuracy": self.inaccuracy}


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the values of the move made and of the engine's best move (in the
    analyst's unit), the best move itself, how many moves were compared and game facts for the
    page (JSON)."""

    played: float
    best: float
    best_action: Action
    options: int
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.played)


def _unrated(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    return None


def _unknown(view: dict) -> float | None:
    return None


def _no_helper(view: dict, legal: list[Action]) -> dict | None:
    return None


@dataclass(frozen=True)
class Analyst:
    """A game's piece of the review: what the game can say, each part a pure function of the
    acting seat's view (defaults: nothing), e.g. ``Analyst("gold_lead", "expected_gold",
    THRESHOLDS, judge=judge, expected=expected_gold)``."""

    #: The unit of values and losses (a catalogue key: ``review.unit_<unit>``).
    unit: str = "points"
    #: What the chart shows (a catalogue key: ``review.chart_<chart>``).
    chart: str = "score"
    thresholds: Thresholds = Thresholds(good=0.5, inaccuracy=1.5)
    #: ``judge(view, legal, played)``: the move ``played`` from ``view`` (the acting seat's)
    #: judged, or ``None``: unrated.
    judge: Callable[[dict, list[Action], Action], Judgement | None] = _unrated
    #: ``expected(view)``: the seat's expected gold or score from its own view (``None``:
    #: unknown).
    expected: Callable[[dict], float | None] = _unknown
    #: ``helper(view, legal)``: what the game's helper shows this seat at this position
    #: (``None``: no helper).
    helper: Callable[[dict, list[Action]], dict | None] = _no_helper


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), DIGITS)


def analyse(log: GameLog, analyst: Analyst, progress: Progress | None = None) -> dict[str, Any]:
    """The whole analysis of a finished game's log by its game's ``analyst`` (see the module
    doc for its parts). ``progress(done, total)`` is called after each action replayed."""
    kind = get_kind(log.kind)
    seats = log.seats
    total = log.steps
    decisions: list[dict[str, Any]] = []
    counts = [
        {"decisions": 0, "rated": 0, "loss": 0.0, **dict.fromkeys(MARKS, 0)} for _ in range(seats)
    ]
    series: list[list[float | None]] = [[] for _ in range(seats)]
    state = None
    for k, state, (seat, action) in walk(log):
        views = [kind.view(state, s) for s in range(seats)]
        for s in range(seats):
            series[s].append(_round(analyst.expected(views[s])))
        if seat is not None:
            legal = kind.legal_actions(state, seat)
            if len(legal) > 1:
                counts[seat]["decisions"] += 1
                judged = analyst.judge(views[seat], legal, action)
                if judged is not None:
                    decisions.append(_decision(analyst, k, seat, action, judged))
                    c = counts[seat]
                    c["rated"] += 1
                    c["loss"] += judged.loss
                    c[decisions[-1]["mark"]] += 1
        if progress is not None:
            progress(k + 1, total)
    # ``walk`` applied the last action after its last step: ``state`` is the final position.
    end = kind.new_state(log.seed, log.seats, log.options) if state is None else state
    for s in range(seats):
        series[s].append(_round(analyst.expected(kind.view(end, s))))
    return {
        "version": ANALYSIS_VERSION,
        "game": kind.name,
        "steps": total,
        "unit": analyst.unit,
        "thresholds": analyst.thresholds.to_json(),
        "decisions": decisions,
        "summary": [_summary(s, c) for s, c in enumerate(counts)],
        "chart": {"measure": analyst.chart, "values": series},
        "scores": kind.scores(end),
    }


def _decision(analyst: Analyst, k: int, seat: int, action: Action, j: Judgement) -> dict:
    loss = _round(j.loss) or 0.0
    return {
        "move": k + 1,
        "seat": seat,
        "action": action,
        "best_action": j.best_action,
        "played_value": _round(j.played),
        "best_value": _round(j.best),
        "loss": loss,
        "mark": analyst.thresholds.mark(loss),
        "options": j.options,
        "detail": j.detail,
    }


def _summary(seat: int, c: dict[str, Any]) -> dict[str, Any]:
    rated = c["rated"]
    return {
        "seat": seat,
        "decisions": c["decisions"],
        "rated": rated,
        "marks": {m: c[m] for m in MARKS},
        "best_share": _round(c["best"] / rated) if rated else None,
        "average_loss": _round(c["loss"] / rated) if rated else None,
    }


def best_of(values: dict[Any, float]) -> Any:
    """The key of the highest value, the first such key on ties (for analysts)."""
    return max(values, key=lambda key: values[key])


def seeded() -> random.Random:
    """A fixed generator for bots consulted by analysts (they must not depend on chance)."""
    return random.Random(0)
