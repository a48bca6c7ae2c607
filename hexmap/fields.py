"""Distance fields: the hex distance from every island space to the nearest of some sources.

The rules measure plain hex distance, across water and sea alike (a space across a narrow bay is
near the other shore), so a field is not computed on the island graph but on the **hex lattice
around the island**: a NetworkX graph of every hex in the island's cube-coordinate bounding box
grown by one (island spaces and the sea around them). A shortest path between two hexes of that
box changes each cube coordinate monotonically, so it never leaves the box: distances in the
lattice are exact hex distances. A field wanted only up to a ``cutoff`` (the clue masks: within
1 or 2) is computed on the hexes within ``cutoff`` of the island instead, which is exact up to
the cutoff and bounded by the island's size however far apart its spaces lie. A field is a multi-source breadth-first search
(``networkx.bfs_layers``) from the sources, optionally stopped after ``cutoff`` layers.

These are built once per island geometry by ``solver.compiled`` and compiled to bitmasks there
(the sea within 1 and 2, the terrains and largest regions within 1 and 2); the lattice itself is
not kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from hexmap.hexes import Hex

#: An island's spaces as ``Island.terrain`` holds them (space → terrain, in index order): all a
#: field needs of an island, so this module does not import ``hexmap.island`` (which uses it).
Spaces = Mapping[Hex, str]

#: Directions E, NE, NW: walking them from every hex visits every lattice edge once.
_FORWARD = ((1, 0), (1, -1), (0, -1))


def lattice(
    spaces: Spaces, extra: Iterable[tuple[int, int]] = (), radius: int | None = None
) -> nx.Graph:
    """The hex lattice around ``spaces`` (and around ``extra`` hexes, sources out at sea).

    Without ``radius``: every hex of the cube bounding box grown by one, exact for any distance.
    With ``radius``: only the hexes within ``radius`` of an island space or an extra hex, exact
    for distances up to ``radius`` (every hex of such a shortest path lies within it of its
    end) and bounded by the island's size, however far apart its spaces are: a hostile island of
    two spaces a million hexes apart costs two small balls, not a million-wide box.
    """
    if radius is not None:
        ball = [
            (dq, dr)
            for dq in range(-radius, radius + 1)
            for dr in range(max(-radius, -radius - dq), min(radius, radius - dq) + 1)
        ]
        centres = [*spaces, *(Hex(*h) for h in extra)]
        nodes = {}
        for cq, cr in centres:
            for dq, dr in ball:
                h = Hex(cq + dq, cr + dr)
                nodes[h] = h
        return _graph(nodes)
    qs = [h[0] for h in spaces] + [h[0] for h in extra]
    rs = [h[1] for h in spaces] + [h[1] for h in extra]
    ss = [-q - r for q, r in zip(qs, rs, strict=True)]
    q0, q1 = min(qs) - 1, max(qs) + 1
    r0, r1 = min(rs) - 1, max(rs) + 1
    s0, s1 = min(ss) - 1, max(ss) + 1
    nodes = {}
    for q in range(q0, q1 + 1):
        for r in range(max(r0, -s1 - q), min(r1, -s0 - q) + 1):
            h = Hex(q, r)
            nodes[h] = h
    return _graph(nodes)


def _graph(nodes: dict[Hex, Hex]) -> nx.Graph:
    """The lattice graph on ``nodes``: an edge between every two neighbouring hexes of it."""
    edges = []
    get = nodes.get
    for h in nodes:
        q, r = h
        for dq, dr in _FORWARD:
            n = get((q + dq, r + dr))  # type: ignore[call-overload]
            if n is not None:
                edges.append((h, n))
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def field_on(
    graph: nx.Graph, spaces: Spaces, sources: Iterable[tuple[int, int]], cutoff: int | None = None
) -> dict[Hex, int]:
    """The distance field of ``sources`` over ``graph`` (a ``lattice``), island spaces only;
    with ``cutoff``, spaces farther than ``cutoff`` are left out. A source off the lattice is
    farther than the lattice's radius from every island space, so it changes nothing."""
    srcs = [h for h in (Hex(*s) for s in sources) if h in graph]
    if not srcs:
        return {}
    out: dict[Hex, int] = {}
    for d, layer in enumerate(nx.bfs_layers(graph, srcs)):
        if cutoff is not None and d > cutoff:
            break
        for h in layer:
            if h in spaces:
                out[h] = d
    return out


def distance_field(
    spaces: Spaces, sources: Iterable[tuple[int, int]], cutoff: int | None = None
) -> dict[Hex, int]:
    """Least hex distance from every island space to a hex of ``sources`` (any hexes, island or
    sea); spaces with no source at all, or farther than ``cutoff``, are left out."""
    srcs = [Hex(*s) for s in sources]
    if not srcs:
        return {}
    outside = [s for s in srcs if s not in spaces]
    return field_on(lattice(spaces, outside, radius=cutoff), spaces, srcs, cutoff)


def distance_fields(
    spaces: Spaces, sources: Mapping[str, Iterable[tuple[int, int]]], cutoff: int | None = None
) -> dict[str, dict[Hex, int]]:
    """Several fields at once, on one lattice (``sources`` by name → field by name).

    Sources must be island spaces or the sea hexes next to the island (``Island.sea_border``):
    the lattice is built for the island alone.
    """
    graph = lattice(spaces, radius=cutoff)
    return {name: field_on(graph, spaces, srcs, cutoff) for name, srcs in sources.items()}
