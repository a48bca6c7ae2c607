"""The solve response written straight as JSON text: the hot path of ``POST /api/tobago/solve``.

``solve_text(req)`` equals ``json.dumps(solver.solve.solve(req))`` once parsed (the tests check
it on many random requests), but costs string joins instead of building and serializing hundreds
of small dicts:

- per island, JSON pieces of every space (``[q,r]``, ``{"space":[q,r],"by":k}``) and the island's
  own JSON text are made once (``_TextTable``, ``_island_text``);
- a mask picks its spaces' pieces with ``itertools.compress`` over its bits spread to one byte per
  space (or, for a few bits, by visiting the bits);
- per compiled island (island, landmark placement, options) the texts of columns and of column
  prefixes are remembered: a position is asked about again and again until a clue is added, and
  a new column usually extends one met before.
"""

from __future__ import annotations

import json
from itertools import compress

from hexmap.island import Island
from solver.explain import Reason
from solver.masks import IslandMasks, MapColumn, compile_island
from solver.solve import SolveRequest, island_json


def solve_text(req: SolveRequest) -> str:
    """The response as compact JSON text (the web endpoint's hot path).

    Equal to ``json.dumps(solve(req))`` once parsed (the tests check it), but assembled from
    JSON fragments made once per island (``[q,r]``, ``{"space":[q,r],"by":``) and the island's
    JSON text, so a request costs string joins rather than hundreds of dicts to serialize.
    """
    island = req.island
    t = compile_island(island, req.options)
    hand_masks = [t.mask(c) for c in req.hand]
    maps_text = []
    columns: list[tuple[str, int, int]] = []
    text = _text_table(island)
    memo = t.memo.get("solve_columns")
    if memo is None:
        memo = t.memo["solve_columns"] = ({}, {})
    columns_memo, prefixes = memo
    if len(columns_memo) >= _TextTable.MAX_COLUMNS:  # bound memory: start afresh
        columns_memo.clear()
        prefixes.clear()
    for m in req.maps:
        codes = tuple([c.code for c in m.clues])
        key = (codes, m.removed)
        done = columns_memo.get(key)
        if done is None:
            done = columns_memo[key] = _column_text(t, text, m, codes, prefixes)
        alive, count, column_json = done
        mid = _json_string(m.id)
        columns.append((mid, alive, count))
        maps_text.append(f'{{"id":{mid},{column_json}}}')
    plays_text = []
    for hi, s in enumerate(hand_masks):
        for mid, cands, count in columns:
            remaining = (cands & s).bit_count()
            legal = "true" if 0 < remaining < count else "false"
            plays_text.append(
                f'{{"hand_index":{hi},"map":{mid},"legal":{legal},"remaining":{remaining}}}'
            )
    return "".join(
        ('{"island":', _island_text(island), ',"maps":[', ",".join(maps_text), '],"plays":[',
         ",".join(plays_text), "]}")
    )  # fmt: skip


_json_strings: dict[str, str] = {}


def _json_string(text: str) -> str:
    """``json.dumps`` of a short string, remembered (map ids recur)."""
    out = _json_strings.get(text)
    if out is None:
        out = json.dumps(text)
        if len(_json_strings) < 4096 and len(text) <= 64:
            _json_strings[text] = out
    return out


def _column_text(
    t: IslandMasks, text: _TextTable, m: MapColumn, codes: tuple[int, ...], prefixes: dict
) -> tuple[int, int, str]:
    """``(candidates, count, '"candidates":[…],"count":n,"excluded":[…]')`` of one column.

    The walk of ``explain.walk_column``, inlined (this is the endpoint's hot path), resumed from
    the longest prefix of the column met before: ``prefixes`` maps clue codes to ``(candidates,
    excluded text)`` after those clues. Columns grow one clue at a time, and every column starts
    with one of a few dozen clues, so most walks only do their last steps.
    """
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
        gone = text.full & ~alive
        excluded = text.excluded("landmark", gone) if gone else ""
    masks = t.masks
    clues = m.clues
    while k < len(codes):
        clue = clues[k]
        s = masks[clue.code]
        if s is None:
            s = t.mask(clue)
        gone = alive & ~s
        if gone:
            alive &= s
            group = text.excluded(k, gone)
            excluded = f"{excluded},{group}" if excluded else group
        k += 1
        if len(prefixes) < _TextTable.MAX_COLUMNS:
            prefixes[codes[:k]] = (alive, excluded)
    gone = alive & m.removed
    if gone:
        alive &= ~gone
        group = text.excluded("removed", gone)
        excluded = f"{excluded},{group}" if excluded else group
    count = alive.bit_count()
    body = f'"candidates":[{text.candidates(alive)}],"count":{count},"excluded":[{excluded}]'
    return alive, count, body


class _TextTable:
    """JSON text pieces of one island's spaces, so that a response costs a few C-level joins.

    ``pairs[i]`` is ``[q,r]`` of space ``i``; ``items(why)[i]`` is ``{"space":[q,r],"by":why}``
    (made once per reason). A mask selects its spaces' pieces with ``itertools.compress`` over
    its bits spread to one byte per space. Only the island's geometry is used, so landmark
    variants share the table.
    """

    __slots__ = ("full", "fmt", "pairs", "heads", "by_reason")

    #: Up to this many spaces, a mask's bits are visited one by one instead of a full scan.
    FEW = 12

    #: Reasons whose item lists are kept (a bound on memory for odd inputs).
    MAX_REASONS = 80
    #: Column texts (and column prefixes) kept per compiled island, then the memo starts
    #: afresh. Columns recur: a position is asked about again and again until a clue is added.
    MAX_COLUMNS = 2048

    def __init__(self, island: Island) -> None:
        self.full = island.full_mask
        self.fmt = f"0{len(island.index)}b"
        self.pairs = [f"[{h.q},{h.r}]" for h in island.index]
        self.heads = ['{"space":' + p + ',"by":' for p in self.pairs]
        self.by_reason: dict[Reason, list[str]] = {}

    def flags(self, mask: int) -> bytes:
        """One byte per space index, 1 where the mask has the space."""
        return format(mask, self.fmt)[::-1].encode().translate(_BINARY_DIGITS)

    def items(self, why: Reason) -> list[str]:
        items = self.by_reason.get(why)
        if items is None:
            tail = json.dumps(why) + "}"
            items = [head + tail for head in self.heads]
            if len(self.by_reason) < self.MAX_REASONS:
                self.by_reason[why] = items
        return items

    def candidates(self, mask: int) -> str:
        """``[q,r],[q,r],…`` of the mask's spaces in index order."""
        return ",".join(compress(self.pairs, self.flags(mask)))

    def excluded(self, why: Reason, mask: int) -> str:
        """``{"space":[q,r],"by":why},…`` of the mask's spaces in index order."""
        items = self.items(why)
        if mask.bit_count() > self.FEW:
            return ",".join(compress(items, self.flags(mask)))
        out = []  # few spaces: visit their bits rather than every space
        while mask:
            low = mask & -mask
            out.append(items[low.bit_length() - 1])
            mask ^= low
        return ",".join(out)


#: bytes b"0"/b"1" → 0/1: selectors for ``itertools.compress``.
_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


def _text_table(island: Island) -> _TextTable:
    table = island.__dict__.get("_solver_text")
    if table is None:
        table = island.__dict__["_solver_text"] = _TextTable(island)
    return table


def _island_text(island: Island) -> str:
    entry = island.__dict__.get("_solver_island_text")
    if entry is None or entry[0] is not island.landmarks:
        text = json.dumps(island_json(island), separators=(",", ":"))
        entry = island.__dict__["_solver_island_text"] = (island.landmarks, text)
    return entry[1]
