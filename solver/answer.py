"""The solve answer: candidates, why every other space is out, and the plays — computed here only.

``POST /api/tobago/solve``, ``python -m solver solve --json``, the deduction helper
(``POST /api/tobago/helper``) and ``solver.explain`` all take a column's answer from this module.

**The walk** (``walk_column``): a column is read top to bottom. First the spaces outside the base
(``"landmark"``: a landmark's space when ``treasure_on_landmarks`` is false), then each clue ``k``
removes the candidates its mask does not hold, then ``"removed"``: the spaces whose marker was
removed with an amulet. Every excluded space gets the first reason that removes it.

**The answer of a column**: ``candidates`` (sorted by ``(q, r)``), ``count``, and ``excluded``:
every other island space as ``{"space": [q, r], "by": reason}``, ordered as the column reads —
``"landmark"`` first, then clue 0, 1, …, then ``"removed"`` — and by ``(q, r)`` within a reason.
The helper adds ``steps`` (the count after the start and after each clue and the removals),
``own`` on each excluded item (``own_target``: a 'within N of X' clue ruled out one of X's own
spaces) and the ``refusals`` of its hand (``play_refusals``: why a card is no legal play).

It is produced in two forms from the same walk: Python objects (``column_answer``, ``answer_json``)
and compact JSON text (``answer_text``, the web endpoint's hot path, which equals
``json.dumps(answer_json(req))`` — tests check it on many random requests). The text is assembled
from pieces made once per island geometry (``[q,r]`` and ``{"space":[q,r],"by":`` of every space,
joined with ``itertools.compress`` over a mask's bits), and the texts of columns and of column
prefixes are remembered per compiled island (a table polls the same position until a clue is
added, and a new column usually extends one met before). Pieces and memos are kept in
``solver.compiled.CACHE``, so they are bounded by memory with everything else compiled.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import compress

from hexmap.drive import DriveCosts
from hexmap.island import Island, bit_indices
from solver.clues import Clue
from solver.compiled import CompiledIsland, charge, compile_island, remember
from solver.masks import MapColumn, play_refusal
from solver.solve import SolveRequest

#: Why a space is out: a clue index, ``"removed"`` or ``"landmark"``.
Reason = int | str
#: Up to this many spaces, a mask's bits are visited one by one instead of a full scan.
FEW = 12
#: Bytes of column and prefix texts remembered per compiled island (past it the memo keeps only
#: the one-clue prefixes, at most one per clue code, which every column starts with; the whole
#: memo ages out with the compiled island in the cache). A few MB: a bigger memo holds more
#: positions but costs the garbage collector more than it saves (measured).
MEMO_BYTES = 4 * 1024 * 1024
#: What a memo entry costs beyond its text (key tuple, value tuple, dict slot).
_ENTRY_BYTES = 160


def walk_column(
    t: CompiledIsland, clues: Sequence[Clue], removed: int = 0
) -> Iterator[tuple[Reason, int, int]]:
    """The column one exclusion at a time: ``(reason, newly excluded mask, candidates after)``.

    Yields ``"landmark"`` first (the spaces outside the base, possibly none), then one item per
    clue (reason = its index), then ``"removed"`` if ``removed`` holds an island space.
    """
    full = t.geometry.full
    masks = t.masks
    alive = t.base
    yield "landmark", full & ~alive, alive
    for k, clue in enumerate(clues):
        after = alive & masks[clue.code]
        yield k, alive & ~after, after
        alive = after
    if removed & full:
        after = alive & ~removed
        yield "removed", alive & ~after, after


def excluded_pairs(
    t: CompiledIsland, clues: Sequence[Clue], removed: int = 0
) -> tuple[int, list[tuple[int, Reason]]]:
    """The candidates mask, and ``(space index, reason)`` of every excluded space in the
    answer's order."""
    pairs: list[tuple[int, Reason]] = []
    alive = t.base
    for why, gone, after in walk_column(t, clues, removed):
        alive = after
        pairs.extend((i, why) for i in bit_indices(gone))
    return alive, pairs


def own_target(t: CompiledIsland, clues: Sequence[Clue], by: Reason, bit: int) -> bool:
    """Whether space ``bit`` was ruled out by a positive 'within N of X' clue because it is one
    of X's own spaces (0 away), which the rules do not count (unless the island was compiled
    with ``near_includes_target``)."""
    if not isinstance(by, int) or t.options.near_includes_target:
        return False
    clue = clues[by]
    if clue.relation != "near" or clue.negated:
        return False
    return bool(t.target_mask(clue) >> bit & 1)


def play_refusals(
    t: CompiledIsland, columns: Sequence[MapColumn], hand: Sequence[Clue]
) -> list[dict]:
    """Every (hand card, map) that is no legal play, with ``solver.masks.play_refusal``'s reason
    (``map_located``, ``removes_every_candidate``, ``removes_no_candidate``): what a disabled
    clue button says."""
    out = []
    masks = [t.masks[c.code] for c in hand]
    for col in columns:
        alive = t.column(col.clues, col.removed)
        for hi, mask in enumerate(masks):
            refusal = play_refusal(alive, mask)
            if refusal is not None:
                out.append({"hand_index": hi, "map": col.id, "reason": refusal})
    return out


def column_answer(
    t: CompiledIsland,
    column: MapColumn,
    *,
    candidates: bool = True,
    steps: bool = False,
    own: bool = False,
) -> tuple[int, dict]:
    """The map's candidates mask, and its answer as Python objects: ``id``, ``candidates``
    (unless ``candidates`` is false), ``count``, ``excluded``, and with ``steps`` the helper's
    ``steps`` (``{"index": None | k | "removed", "remaining"}``: the start, each clue, the
    removals); with ``own`` each excluded item says whether it is its near clue's own target."""
    index = t.island.index
    excluded = []
    out_steps: list[dict[str, Reason | None]] = [{"index": None, "remaining": t.base.bit_count()}]
    alive = t.base
    for why, gone, after in walk_column(t, column.clues, column.removed):
        alive = after
        for i in bit_indices(gone):
            item: dict = {"space": [index[i].q, index[i].r], "by": why}
            if own:
                item["own"] = own_target(t, column.clues, why, i)
            excluded.append(item)
        if why != "landmark":
            out_steps.append({"index": why, "remaining": after.bit_count()})
    out: dict = {"id": column.id}
    if candidates:
        out["candidates"] = [[index[i].q, index[i].r] for i in bit_indices(alive)]
    out["count"] = alive.bit_count()
    out["excluded"] = excluded
    if steps:
        out["steps"] = out_steps
    return alive, out


def helper_maps(
    t: CompiledIsland, columns: Sequence[MapColumn], layers: Sequence[DriveCosts]
) -> list[dict]:
    """The deduction helper's maps (the game page's and the review's): each column's answer
    without candidates, with ``steps`` and ``own``, and ``costs``: the drive cost from each of
    ``layers`` (one per ATV) to the map's nearest candidate (None when it has none)."""
    out = []
    for col in columns:
        alive, answer = column_answer(t, col, candidates=False, steps=True, own=True)
        answer["costs"] = [layer.nearest(alive) if alive else None for layer in layers]
        out.append(answer)
    return out


def plays(
    t: CompiledIsland, columns: Sequence[tuple[str, int, int]], hand: Sequence[Clue]
) -> list[dict]:
    """One entry per hand card × map (hand order, then map order): ``remaining = |C ∩ S|`` and
    ``legal = 0 < remaining < count``; ``columns`` are ``(id, candidates, count)``."""
    out = []
    masks = t.masks
    for hi, clue in enumerate(hand):
        s = masks[clue.code]
        for mid, cands, count in columns:
            remaining = (cands & s).bit_count()
            out.append(
                {
                    "hand_index": hi,
                    "map": mid,
                    "legal": 0 < remaining < count,
                    "remaining": remaining,
                }
            )
    return out


def answer_json(req: SolveRequest) -> dict:
    """The response of ``POST /api/tobago/solve`` as Python objects (see ``solver.solve``)."""
    t = compile_island(req.island, req.options)
    maps = []
    columns = []
    for m in req.maps:
        alive, answer = column_answer(t, m)
        maps.append(answer)
        columns.append((m.id, alive, answer["count"]))
    out: dict = {}
    if req.include_island:
        out["island"] = req.island.to_json()
    out["maps"] = maps
    out["plays"] = plays(t, columns, req.hand)
    return out


# --- the same answer as JSON text --------------------------------------------------------------


def answer_text(req: SolveRequest) -> str:
    """The response as compact JSON text: equal to ``json.dumps(answer_json(req))`` once parsed."""
    island = req.island
    t = compile_island(island, req.options)
    pieces = _pieces(island)
    memo = _memo(t)
    maps_text = []
    columns: list[tuple[str, int, int]] = []
    for m in req.maps:
        alive, count, body = _column_text(t, pieces, memo, m)
        mid = _json_string(m.id)
        columns.append((mid, alive, count))
        maps_text.append(f'{{"id":{mid},{body}}}')
    masks = t.masks
    plays_text = []
    for hi, clue in enumerate(req.hand):
        s = masks[clue.code]
        for mid, cands, count in columns:
            remaining = (cands & s).bit_count()
            legal = "true" if 0 < remaining < count else "false"
            plays_text.append(
                f'{{"hand_index":{hi},"map":{mid},"legal":{legal},"remaining":{remaining}}}'
            )
    head = '{"island":' + _island_text(island) + ',"maps":[' if req.include_island else '{"maps":['
    return "".join((head, ",".join(maps_text), '],"plays":[', ",".join(plays_text), "]}"))


class _Pieces:
    """JSON text pieces of one island geometry's spaces: ``pairs[i]`` is ``[q,r]`` of space
    ``i``, ``heads[i]`` is ``{"space":[q,r],"by":``. A mask selects its spaces' pieces with
    ``itertools.compress`` over its bits spread to one byte per space."""

    __slots__ = ("full", "fmt", "pairs", "heads")

    def __init__(self, island: Island) -> None:
        self.full = island.full_mask
        self.fmt = f"0{len(island.index)}b"
        self.pairs = [f"[{h.q},{h.r}]" for h in island.index]
        self.heads = ['{"space":' + p + ',"by":' for p in self.pairs]

    def nbytes(self) -> int:
        return 240 + sum(len(p) + len(h) + 114 for p, h in zip(self.pairs, self.heads, strict=True))

    def flags(self, mask: int) -> bytes:
        """One byte per space index, 1 where the mask has the space."""
        return format(mask, self.fmt)[::-1].encode().translate(_BINARY_DIGITS)

    def candidates(self, mask: int) -> str:
        """``[q,r],[q,r],…`` of the mask's spaces in index order."""
        return ",".join(compress(self.pairs, self.flags(mask)))

    def excluded(self, why: Reason, mask: int) -> str:
        """``{"space":[q,r],"by":why},…`` of the mask's spaces in index order."""
        tail = _json_reason(why)
        if mask.bit_count() > FEW:
            return (tail + ",").join(compress(self.heads, self.flags(mask))) + tail
        heads = self.heads
        out = []  # few spaces: visit their bits rather than every space
        while mask:
            low = mask & -mask
            out.append(heads[low.bit_length() - 1] + tail)
            mask ^= low
        return ",".join(out)


#: bytes b"0"/b"1" → 0/1: selectors for ``itertools.compress``.
_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
_REASON_TEXT = {"landmark": '"landmark"}', "removed": '"removed"}'}


#: ``k}`` for the first clue indices (a column has at most ``MAX_CLUES`` clues).
_INDEX_TEXT = [f"{k}}}" for k in range(64)]


def _json_reason(why: Reason) -> str:
    """``why`` as the end of an excluded item: ``3}`` or ``"removed"}``."""
    if isinstance(why, int):
        return _INDEX_TEXT[why] if 0 <= why < 64 else f"{why}}}"
    return _REASON_TEXT.get(why) or json.dumps(why) + "}"


def _pieces(island: Island) -> _Pieces:
    return remember(("answer-pieces", island.geometry_key), lambda: _Pieces(island), _Pieces.nbytes)


def _island_text(island: Island) -> str:
    return remember(
        ("answer-island", island.key),
        lambda: json.dumps(island.to_json(), separators=(",", ":")),
        lambda text: 80 + len(text),
    )


class _Memo:
    """Texts of columns and column prefixes met on one compiled island, kept in the cache
    (``("answer-memo", t.id)``) and charged to it as they grow, cleared past a bound."""

    __slots__ = ("columns", "prefixes", "nbytes")

    def __init__(self) -> None:
        self.columns: dict[tuple[tuple[int, ...], int], tuple[int, int, str]] = {}
        self.prefixes: dict[tuple[int, ...], tuple[int, str]] = {}
        #: What the memo's texts are charged to the cache (their length and entry costs).
        self.nbytes = 0

    def reset(self) -> int:
        """Keep only the one-clue prefixes (none, if they alone fill half the bound); returns
        their size in bytes."""
        self.columns = {}
        kept: dict[tuple[int, ...], tuple[int, str]] = {
            k: v for k, v in list(self.prefixes.items()) if len(k) == 1
        }
        size = sum(len(text) + _ENTRY_BYTES for _, text in kept.values())
        if size > MEMO_BYTES // 2:
            kept, size = {}, 0
        self.prefixes = kept
        return size


def _memo(t: CompiledIsland) -> _Memo:
    return remember(("answer-memo", t.id), _Memo, _memo_size)


def _memo_size(_: _Memo) -> int:
    return 400


def _column_text(
    t: CompiledIsland, pieces: _Pieces, memo: _Memo, m: MapColumn
) -> tuple[int, int, str]:
    """``(candidates, count, '"candidates":[…],"count":n,"excluded":[…]')`` of one column.

    The walk of ``walk_column``, resumed from the longest prefix of the column met before
    (``prefixes`` maps clue codes to ``(candidates, excluded text)`` after those clues; kept for
    every column met and for its first clue): columns grow one clue at a time, and every column
    starts with one of a few dozen clues, so most walks only do their last steps.
    """
    codes = tuple([c.code for c in m.clues])
    done = memo.columns.get((codes, m.removed))
    if done is not None:
        return done
    prefixes = memo.prefixes
    k = len(codes)
    hit = None
    while k:  # one ``get`` per probe: another thread may clear the memo meanwhile
        hit = prefixes.get(codes[:k])
        if hit is not None:
            break
        k -= 1
    if hit is not None:
        alive, excluded = hit
    else:
        alive = t.base
        gone = pieces.full & ~alive
        excluded = pieces.excluded("landmark", gone) if gone else ""
    masks = t.masks
    clues = m.clues
    grown = 0
    while k < len(codes):
        s = masks[clues[k].code]
        gone = alive & ~s
        if gone:
            alive &= s
            group = pieces.excluded(k, gone)
            excluded = f"{excluded},{group}" if excluded else group
        k += 1
        if k == 1 or k == len(codes):  # what later columns extend: a first clue, this column
            prefixes[codes[:k]] = (alive, excluded)
            grown += len(excluded) + _ENTRY_BYTES
    gone = alive & m.removed
    if gone:
        alive &= ~gone
        group = pieces.excluded("removed", gone)
        excluded = f"{excluded},{group}" if excluded else group
    count = alive.bit_count()
    body = f'"candidates":[{pieces.candidates(alive)}],"count":{count},"excluded":[{excluded}]'
    done = (alive, count, body)
    memo.columns[(codes, m.removed)] = done
    grown += len(body) + _ENTRY_BYTES
    if memo.nbytes + grown > MEMO_BYTES:
        grown = memo.reset() - memo.nbytes
    memo.nbytes += grown
    charge(("answer-memo", t.id), grown)
    return done


_json_strings: dict[str, str] = {}


def _json_string(text: str) -> str:
    """``json.dumps`` of a short string, remembered (map ids recur; at most 4,096 strings of
    at most 64 characters: a bounded few hundred KB)."""
    out = _json_strings.get(text)
    if out is None:
        out = json.dumps(text)
        if len(_json_strings) < 4096 and len(text) <= 64:
            _json_strings[text] = out
    return out
