"""A puzzle's explanation in words, in English (``en``) and Traditional Chinese (``zh``).

The sentences follow the explanation order of ``solver.puzzles.generate.explain`` (the clue
removing the most remaining spaces first): an opening line, one line per clue saying how many
spaces it rules out and how many are left, and the answer. Clue sentences come from
``solver.clues.describe_clue``; every other string is in the message catalogues
(``i18n/<lang>/puzzles.json``, keys ``puzzle.*``). A space is named as a player finds it on the
map (``solver.places.place_name``: terrain, where, region, nearest landmark), never by its
coordinates. Clue numbers in the text are 1-based, as printed on the page.
"""

from __future__ import annotations

from hexmap.hexes import Hex
from i18n import translate
from solver.clues import LANGS, check_lang, describe_clue
from solver.places import place_name
from solver.puzzles.generate import Puzzle, Step

__all__ = [
    "LANGS",
    "answer_text",
    "check_lang",
    "clue_text",
    "intro_text",
    "step_text",
    "steps_json",
    "why_text",
]


def _word(lang: str, n: int) -> str:
    return translate(lang, "puzzle.space" if n == 1 else "puzzle.spaces")


def clue_text(p: Puzzle, position: int, lang: str = "en") -> str:
    """The sentence of the puzzle's clue number ``position`` (0-based)."""
    return describe_clue(p.clues[position], check_lang(lang))


def intro_text(p: Puzzle, lang: str = "en") -> str:
    n = p.steps[0].remaining + len(p.steps[0].removed) if p.steps else 1
    return translate(check_lang(lang), "puzzle.intro", n=n)


def step_text(p: Puzzle, step: Step, lang: str = "en") -> str:
    """One step: which clue, how many spaces it rules out, what is left."""
    lang = check_lang(lang)
    fields = {
        "k": step.position + 1,
        "clue": clue_text(p, step.position, lang),
        "removed": len(step.removed),
        "removed_word": _word(lang, len(step.removed)),
        "remaining": step.remaining,
        "remaining_word": _word(lang, step.remaining),
        "place": place_name(p.island, p.answer, lang),
    }
    return translate(lang, "puzzle.step_last" if step.remaining == 1 else "puzzle.step", **fields)


def answer_text(p: Puzzle, lang: str = "en") -> str:
    lang = check_lang(lang)
    return translate(lang, "puzzle.answer", place=place_name(p.island, p.answer, lang))


def why_text(p: Puzzle, space: Hex, lang: str = "en") -> str:
    """Why ``space`` is not the answer (the step that rules it out), or that it is right."""
    lang = check_lang(lang)
    step = p.excluded_by(space)
    place = place_name(p.island, space, lang)
    if step is None:
        return translate(lang, "puzzle.correct", place=place)
    return translate(
        lang, "puzzle.why", place=place, k=step.position + 1, clue=clue_text(p, step.position, lang)
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
