"""A puzzle's explanation in words, in English (``en``) and Traditional Chinese (``zh``).

The sentences follow the explanation order of ``solver.puzzles.explain`` (the clue removing the
most remaining spaces first): an opening line, one line per clue saying how many spaces it rules
out and how many are left, and the answer. Clue sentences come from ``solver.clues.describe_clue``;
every other string is in ``puzzle_strings.json`` (one table per language, easy to hand over to a
site-wide translation helper). Clue numbers in the text are 1-based, as printed on the page.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from errors import InvalidInput
from hexmap.hexes import Hex
from solver.clues import describe_clue
from solver.puzzles import Puzzle, Step

LANGS: tuple[str, ...] = ("en", "zh")
_STRINGS = Path(__file__).with_name("puzzle_strings.json")


@cache
def strings() -> dict[str, dict]:
    """The string tables, by language."""
    return json.loads(_STRINGS.read_text(encoding="utf-8"))


def check_lang(lang: str, field: str = "lang") -> str:
    if lang not in LANGS:
        raise InvalidInput(f"unknown language {lang!r}; expected 'en' or 'zh'", field)
    return lang


def _word(table: dict, n: int) -> str:
    return table["space"] if n == 1 else table["spaces"]


def clue_text(p: Puzzle, position: int, lang: str = "en") -> str:
    """The sentence of the puzzle's clue number ``position`` (0-based)."""
    return describe_clue(p.clues[position], check_lang(lang))


def intro_text(p: Puzzle, lang: str = "en") -> str:
    n = p.steps[0].remaining + len(p.steps[0].removed) if p.steps else 1
    return strings()[check_lang(lang)]["intro"].format(n=n)


def step_text(p: Puzzle, step: Step, lang: str = "en") -> str:
    """One step: which clue, how many spaces it rules out, what is left."""
    t = strings()[check_lang(lang)]
    fields = {
        "k": step.position + 1,
        "clue": clue_text(p, step.position, lang),
        "removed": len(step.removed),
        "removed_word": _word(t, len(step.removed)),
        "remaining": step.remaining,
        "remaining_word": _word(t, step.remaining),
        "q": p.answer.q,
        "r": p.answer.r,
    }
    return t["step_last" if step.remaining == 1 else "step"].format(**fields)


def answer_text(p: Puzzle, lang: str = "en") -> str:
    t = strings()[check_lang(lang)]
    terrain = t["terrain"][p.island.terrain[p.answer]]
    return t["answer"].format(q=p.answer.q, r=p.answer.r, terrain=terrain)


def why_text(p: Puzzle, space: Hex, lang: str = "en") -> str:
    """Why ``space`` is not the answer (the step that rules it out), or that it is right."""
    t = strings()[check_lang(lang)]
    step = p.excluded_by(space)
    if step is None:
        return t["correct"].format(q=space.q, r=space.r)
    return t["why"].format(
        q=space.q, r=space.r, k=step.position + 1, clue=clue_text(p, step.position, lang)
    )


def steps_json(p: Puzzle) -> list[dict]:
    """The explanation as JSON: per step the clue (0-based), removed spaces, count, texts."""
    return [
        {
            "clue": s.position,
            "removed": [[h.q, h.r] for h in s.removed],
            "remaining": s.remaining,
            "text": {lang: step_text(p, s, lang) for lang in LANGS},
        }
        for s in p.steps
    ]
