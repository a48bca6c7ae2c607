"""Where puzzles come from: island references, seeds, the daily puzzle, and puzzle codes.

**Island reference.** A puzzle's island is a built-in island (``hexmap.catalog.classic_island``,
by name, with a landmarks seed) or a generated one (``generated_island`` by seed, optionally with
its own landmarks seed): ``solver.puzzles.source.IslandRef``, whose ``load`` rebuilds it (the
catalog keeps it built).

**Seeds.** ``puzzle_for_seed(seed, difficulty)`` uses the generated island of ``seed`` and a
``random.Random`` seeded from ``(difficulty, minimal, seed)``; the same call gives the same
puzzle on any machine.

**Daily puzzle.** ``daily_puzzle(day)`` uses the seed ``YYYYMMDD`` of the date; its difficulty
follows the weekday (Monday–Tuesday easy, Wednesday–Friday medium, Saturday–Sunday hard).

**Code.** A short URL-safe text (base64url, no padding) of these bytes:

=========  ==================================================================================
byte 0     format version (1)
byte 1     flags: bit 0 generated island (else built-in), bit 1 minimal, bit 2 a landmarks
           seed follows (always for built-in), bits 3–4 the minimal proof's clue pool
           (0 easy, 1 medium, 2 hard)
varint     built-in island index (in ``builtin_names()``) or the generated island's seed
varint     landmarks seed (when flagged)
byte       number of clues n (1–12), then n bytes: clue indices in ``puzzle_clues.json``
byte       check byte: CRC-32 of everything before, low 8 bits
=========  ==================================================================================

The answer is not stored: it is whatever single space the clues leave, so a code cannot lie
about it. Decoding rebuilds the island, checks the clues leave exactly one candidate and are
irredundant (and, for a minimal code, re-proves minimality).
"""

from __future__ import annotations

import base64
import binascii
import random
import zlib
from datetime import date

from errors import IllegalAction, InvalidInput, NotFound
from hexmap.seeds import check_seed
from solver.puzzles.clues import DIFFICULTIES, universe
from solver.puzzles.generate import (
    Puzzle,
    check_difficulty,
    from_clues,
    is_irredundant,
    make_minimal_puzzle,
    make_puzzle,
    minimal_clues,
)
from solver.puzzles.source import IslandRef

CODE_VERSION = 1
MAX_CLUES = 12
MAX_CODE_LENGTH = 64
_FLAG_GENERATED, _FLAG_MINIMAL, _FLAG_LANDMARKS = 1, 2, 4
_WEEKDAY_DIFFICULTY = ("easy", "easy", "medium", "medium", "medium", "hard", "hard")


def builtin_names() -> list[str]:
    from hexmap import catalog

    return list(catalog.builtin_names())


# --- seeds and the daily puzzle -----------------------------------------------------------


#: Landmark placements tried, in order, when an island has no puzzle of a difficulty.
LANDMARK_RETRIES = 8


def puzzle_for_seed(seed: int, difficulty: str, minimal: bool = False) -> Puzzle:
    """The puzzle of ``seed`` at ``difficulty`` on the generated island of ``seed``.

    In the rare case that no such puzzle is found with the island's own landmarks, the same
    island with landmarks seeds 1, 2, … is used instead (the code records which).
    """
    check_seed(seed, "seed")
    check_difficulty(difficulty)
    rng_seed = f"tobago-puzzle/{difficulty}/{minimal}/{seed}"
    for k in range(LANDMARK_RETRIES):
        ref = IslandRef(seed=seed, landmarks_seed=k or None)
        try:
            return puzzle_on(ref, rng_seed, difficulty, minimal)
        except InvalidInput:
            continue
    raise IllegalAction(f"no {difficulty} puzzle on the island of seed {seed}", "seed")


def puzzle_on(ref: IslandRef, rng_seed: str, difficulty: str, minimal: bool = False) -> Puzzle:
    """A puzzle on the island of ``ref`` drawn with ``random.Random(rng_seed)``."""
    island = ref.load()
    rng = random.Random(rng_seed)
    if minimal:
        return make_minimal_puzzle(island, rng, difficulty, ref)
    return make_puzzle(island, rng, difficulty, ref)


def daily_seed(day: date) -> int:
    """The seed of a date: its digits ``YYYYMMDD`` as a number."""
    return day.year * 10000 + day.month * 100 + day.day


def daily_difficulty(day: date) -> str:
    """Monday–Tuesday easy, Wednesday–Friday medium, Saturday–Sunday hard."""
    return _WEEKDAY_DIFFICULTY[day.weekday()]


def daily_puzzle(day: date) -> Puzzle:
    """The puzzle of the day: the same for everyone, every time, for that date."""
    return puzzle_for_seed(daily_seed(day), daily_difficulty(day))


# --- codes --------------------------------------------------------------------------------


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def puzzle_code(p: Puzzle) -> str:
    """The short code of a puzzle (see the module docstring)."""
    ref = p.source
    if not isinstance(ref, IslandRef):
        raise InvalidInput("this puzzle's island has no reference, so it has no code", "island")
    flags = 0
    body = bytearray()
    if ref.name is None:  # a generated island
        if ref.seed is None:
            raise InvalidInput("this puzzle's island reference has no name and no seed", "island")
        flags |= _FLAG_GENERATED
        body += _varint(ref.seed)
        if ref.landmarks_seed is not None:
            flags |= _FLAG_LANDMARKS
            body += _varint(ref.landmarks_seed)
    else:
        flags |= _FLAG_LANDMARKS
        body += _varint(builtin_names().index(ref.name))
        body += _varint(ref.landmarks_seed or 0)
    if p.proof is not None:
        flags |= _FLAG_MINIMAL | (DIFFICULTIES.index(p.proof.pool) << 3)
    body.append(len(p.clue_ids))
    body += bytes(p.clue_ids)
    raw = bytes([CODE_VERSION, flags]) + bytes(body)
    raw += bytes([zlib.crc32(raw) & 0xFF])
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise InvalidInput("puzzle code is too short", "code")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        n, shift = 0, 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                return n
            shift += 7
            if shift > 63:
                raise InvalidInput("puzzle code holds a number that is too large", "code")


def parse_code(code: str) -> tuple[IslandRef, tuple[int, ...], int | None]:
    """``(island ref, clue ids, minimal pool index or None)`` from a code; ``InvalidInput``."""
    r = _Reader(_code_bytes(code))
    if r.byte() != CODE_VERSION:
        raise InvalidInput("unknown puzzle code version", "code")
    flags = r.byte()
    if flags & ~0x1F or (flags >> 3) >= len(DIFFICULTIES):
        raise InvalidInput("puzzle code has unknown flags", "code")
    ref = _island_ref(r, flags)
    n = r.byte()
    if not 1 <= n <= MAX_CLUES:
        raise InvalidInput(f"a puzzle has 1-{MAX_CLUES} clues, the code says {n}", "code")
    ids = tuple(r.byte() for _ in range(n))
    if r.pos != len(r.data):
        raise InvalidInput("puzzle code has trailing bytes", "code")
    if any(i >= len(universe()) for i in ids):
        raise InvalidInput("puzzle code names an unknown clue", "code")
    pool = (flags >> 3) if flags & _FLAG_MINIMAL else None
    return ref, ids, pool


def _code_bytes(code: str) -> bytes:
    """The bytes of a code before its check byte, once the text and the check byte are right."""
    if not isinstance(code, str) or not code or len(code) > MAX_CODE_LENGTH:
        raise InvalidInput(f"a puzzle code is 1-{MAX_CODE_LENGTH} characters", "code")
    if not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
        raise InvalidInput("a puzzle code uses only letters, digits, '-' and '_'", "code")
    try:
        raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise InvalidInput("not a puzzle code (bad length)", "code") from None
    if len(raw) < 5 or zlib.crc32(raw[:-1]) & 0xFF != raw[-1]:
        raise InvalidInput("not a puzzle code (check byte does not match)", "code")
    return raw[:-1]


def _island_ref(r: _Reader, flags: int) -> IslandRef:
    """The island reference read from a code: a built-in island's number or a seed, then the
    landmarks seed when ``flags`` say one follows."""
    first = r.varint()
    lm = r.varint() if flags & _FLAG_LANDMARKS else None
    if flags & _FLAG_GENERATED:
        ref = IslandRef(seed=check_seed(first, "code"), landmarks_seed=lm)
    else:
        names = builtin_names()
        if first >= len(names):
            raise NotFound(f"no built-in island number {first}", "code")
        ref = IslandRef(name=names[first], landmarks_seed=lm)
    if lm is not None:
        check_seed(lm, "code")
    return ref


def puzzle_from_code(code: str) -> Puzzle:
    """Rebuild the puzzle of ``code``: ``InvalidInput`` if malformed, ``NotFound`` if no puzzle."""
    ref, ids, pool = parse_code(code)
    try:
        island = ref.load()
    except InvalidInput as e:
        raise NotFound(
            f"puzzle code names an island that cannot be built: {e.message}", "code"
        ) from None
    try:
        p = from_clues(island, ids, ref)
    except InvalidInput as e:
        raise NotFound(f"not a puzzle: {e.message}", "code") from None
    if not is_irredundant(island, ids):
        raise NotFound("not a puzzle: one of its clues is redundant", "code")
    if pool is not None:
        found = minimal_clues(island, p.answer, DIFFICULTIES[pool])
        if found is None or found[1].clues != len(ids) or not _in_pool(ids, pool):
            raise NotFound("not a minimal puzzle: fewer clues would do", "code")
        p = Puzzle(island, ids, p.answer, ref, found[1])
    return p


def _in_pool(ids: tuple[int, ...], pool: int) -> bool:
    from solver.puzzles.clues import pool as pool_of

    allowed = set(pool_of(DIFFICULTIES[pool]))
    return all(i in allowed for i in ids)
