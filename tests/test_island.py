"""The island graph, its derived structure, drive costs and the JSON form (rules §1, §5, §6)."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hexmap import (
    Hex,
    InvalidInput,
    Island,
    Landmark,
    distance,
    drive_costs,
    hex_range,
    island_from_json,
    landmark_violations,
    neighbours,
    parse_space,
)
from hexmap.drive import DRIVE_POINTS, DriveMoves, drive_table
from hexmap.terrain import LANDMARK_KINDS, TERRAINS

# A hand-made island of 11 spaces (axial q, r):
#   r=0:          J(0,0) J(1,0) J(2,0) B(3,0)
#   r=1:     G(-1,1) M(0,1) R(1,1) G(2,1)
#   r=2: G(-1,2) M(0,2) L(1,2)
SMALL = {
    (0, 0): "jungle",
    (1, 0): "jungle",
    (2, 0): "jungle",
    (3, 0): "beach",
    (-1, 1): "grassland",
    (0, 1): "mountain",
    (1, 1): "river",
    (2, 1): "grassland",
    (-1, 2): "grassland",
    (0, 2): "mountain",
    (1, 2): "lake",
}


@pytest.fixture
def small() -> Island:
    return Island(SMALL, name="small")


def small_json(**changes) -> dict:
    data = {
        "spaces": [{"q": q, "r": r, "terrain": t} for (q, r), t in SMALL.items()],
        "landmarks": [],
    }
    data.update(changes)
    return data


# --- structure -------------------------------------------------------------------------------


def test_index_is_sorted_and_bits_follow_it(small):
    assert small.index == tuple(sorted(Hex(*h) for h in SMALL))
    assert small.index[:3] == (Hex(-1, 1), Hex(-1, 2), Hex(0, 0))
    assert small.bit[Hex(0, 0)] == 2
    assert small.full_mask == (1 << 11) - 1
    assert len(small) == 11 and (0, 0) in small and (5, 5) not in small


def test_graph_nodes_edges_and_terrain(small):
    g = small.graph
    assert g.number_of_nodes() == 11
    assert g.nodes[(1, 1)]["terrain"] == "river"
    assert set(g.neighbors((1, 1))) == {(2, 1), (2, 0), (1, 0), (0, 1), (0, 2), (1, 2)}
    # every edge joins hex neighbours, and every pair of island neighbours is an edge
    assert all(distance(a, b) == 1 for a, b in g.edges)
    assert g.number_of_edges() == sum(1 for h in SMALL for n in neighbours(h)[:3] if n in SMALL)


def test_regions_and_unique_largest(small):
    assert small.regions["jungle"] == [frozenset({(0, 0), (1, 0), (2, 0)})]
    assert small.regions["grassland"] == [
        frozenset({(-1, 1), (-1, 2)}),
        frozenset({(2, 1)}),
    ]
    assert small.largest["grassland"] == {(-1, 1), (-1, 2)}
    assert small.largest["mountain"] == {(0, 1), (0, 2)}
    assert small.region_of((2, 0)) == small.largest["jungle"]
    assert set(small.regions) == set(TERRAINS)


def test_coast_and_sea(small):
    assert small.coast == frozenset(Hex(*h) for h in SMALL) - {(0, 1), (1, 1)}
    assert small.is_sea((4, 0)) and not small.is_sea((0, 0))
    assert (4, 0) in small.sea_border and (0, 1) not in small.sea_border
    assert all(small.is_sea(h) for h in small.sea_border)


def test_distance_fields(small):
    assert small.sea_distance[Hex(0, 1)] == 2
    assert small.sea_distance[Hex(1, 1)] == 2
    assert small.sea_distance[Hex(3, 0)] == 1
    field = small.distance_field([(3, 0)])
    assert field[Hex(3, 0)] == 0 and field[Hex(0, 0)] == 3 and field[Hex(-1, 2)] == 4
    assert small.distance_field([]) == {}
    # sources off the island count too (the rules measure plain hex distance)
    assert small.distance_field([(5, 0)])[Hex(3, 0)] == 2


def test_statue_ray_stops_at_the_last_island_space(small):
    assert small.statue_ray((0, 1), 0) == Hex(2, 1)
    assert small.statue_ray((0, 1), 3) == Hex(-1, 1)
    assert small.statue_ray((0, 1), 5) == Hex(0, 2)
    assert small.statue_ray((3, 0), 0) == Hex(3, 0)  # sea right next to it: its own space


def test_masks_round_trip(small):
    m = small.mask_of([(0, 0), (3, 0), (9, 9)])  # off-island hexes are ignored
    assert m == (1 << 2) | (1 << 10)
    assert small.spaces_of(m) == [Hex(0, 0), Hex(3, 0)]
    assert small.spaces_of(0) == []
    assert small.spaces_of(small.full_mask) == list(small.index)


def test_within_masks_match_hex_distance(small):
    for radius in (0, 1, 3):
        masks = small.within_masks(radius)
        for i, h in enumerate(small.index):
            assert small.spaces_of(masks[i]) == [x for x in small.index if distance(h, x) <= radius]
    assert small.within_masks(2) is small.within_masks(2)  # computed once
    with pytest.raises(InvalidInput):
        small.within_masks(-1)


def test_with_landmarks_shares_geometry(small):
    lm = [Landmark("hut", Hex(0, 0)), Landmark("statue", Hex(0, 1), 2)]
    other = small.with_landmarks(lm)
    assert other.landmarks == tuple(lm) and small.landmarks == ()
    assert other.regions is small.regions and other.index is small.index
    assert other.geometry_key == small.geometry_key and other.key != small.key
    assert other.landmark_at((0, 1)).facing == 2 and small.landmark_at((0, 1)) is None
    assert other.landmarks_of("hut") == [lm[0]]


def test_tied_largest_region_is_refused_naming_the_terrain():
    spaces = dict(SMALL)
    spaces[(-1, 2)] = "mountain"  # grassland now has two regions of one space
    with pytest.raises(InvalidInput) as e:
        Island(spaces)
    assert e.value.field == "spaces.grassland"
    assert "largest region must be unique" in e.value.message


def test_empty_island_is_refused():
    with pytest.raises(InvalidInput):
        Island({})


# --- drive costs (rules §5) ------------------------------------------------------------------


def test_drive_costs_known_answers(small):
    assert drive_costs(small, (0, 0)) == {
        (0, 0): 0,
        (1, 0): 1,  # anywhere in the jungle region: 1 point
        (2, 0): 1,
        (-1, 1): 1,  # one step onto a different terrain: 1 point
        (0, 1): 1,
        (3, 0): 2,  # through the jungle, then one step
        (2, 1): 2,
        (1, 1): 2,
        (-1, 2): 2,  # step onto the grassland, then move inside it
        (0, 2): 2,
        (1, 2): 3,
    }


def test_drive_costs_from_a_lake(small):
    costs = drive_costs(small, (1, 2))
    assert costs[Hex(1, 2)] == 0
    assert costs[Hex(1, 1)] == costs[Hex(0, 2)] == costs[Hex(2, 1)] == 1
    assert costs[Hex(0, 1)] == 2  # the rest of the mountain region
    assert costs[Hex(3, 0)] == 2  # via the grassland at (2, 1)
    assert costs[Hex(2, 0)] == 2  # one step from the grassland at (2, 1)
    assert costs[Hex(0, 0)] == 3  # ... then drive through the jungle
    assert costs[Hex(-1, 1)] == 3


def test_drive_costs_refuse_a_start_in_the_sea(small):
    with pytest.raises(InvalidInput) as e:
        drive_costs(small, (7, 7))
    assert e.value.field == "start"


def test_a_drive_table_gives_the_costs_as_a_dict_and_as_layers(small):
    d = drive_table(DriveMoves(small), (0, 0))
    assert d.costs == drive_costs(small, (0, 0)) and d.start == Hex(0, 0)
    # layers[k]: the spaces reachable with at most k points
    assert [small.spaces_of(m) for m in d.layers] == [
        [h for h in small.index if d.costs[h] <= k] for k in range(4)
    ]
    assert d.nearest(small.mask_of([(1, 2), (3, 0)])) == 2  # (3, 0) costs 2, (1, 2) 3
    assert d.nearest(small.mask_of([(1, 2)])) == 3
    assert d.nearest(0) is None


def test_drive_points_are_read_from_the_rules_data():
    assert DRIVE_POINTS == 3


def _reference_drive_costs(island: Island, start) -> dict:
    """Shortest paths in an explicit move graph: region moves and steps, each 1 point."""
    g = nx.DiGraph()
    for h in island.index:
        g.add_node(h)
        for m in island.region_of(h):
            if m != h:
                g.add_edge(h, m)
        for n in neighbours(h):
            if n in island.terrain and island.terrain[n] != island.terrain[h]:
                g.add_edge(h, n)
    return nx.single_source_shortest_path_length(g, Hex(*start))


# --- random islands --------------------------------------------------------------------------


@st.composite
def islands(draw, with_landmarks: bool = False) -> Island:
    cells = hex_range((0, 0), 3)
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True))
    spaces = {h: draw(st.sampled_from(TERRAINS)) for h in sorted(chosen)}
    try:
        island = Island(spaces)
    except InvalidInput:
        assume(False)
    if with_landmarks:
        spots = draw(st.lists(st.sampled_from(island.index), max_size=6, unique=True))
        lms = []
        for h in spots:
            kind = draw(st.sampled_from(LANDMARK_KINDS))
            facing = draw(st.integers(0, 5)) if kind == "statue" else None
            lms.append(Landmark(kind, h, facing))
        island = island.with_landmarks(lms)
    return island


@settings(max_examples=60, deadline=None)
@given(islands())
def test_drive_costs_match_a_shortest_path_reference(island):
    start = island.index[len(island) // 2]
    expected = _reference_drive_costs(island, start)
    assert drive_costs(island, start) == expected
    table = drive_table(DriveMoves(island), start)
    assert table.layers[-1] == island.mask_of(expected)  # the last layer: everything reachable
    for h, c in expected.items():
        assert table.nearest(island.mask_of([h])) == c


@settings(max_examples=60, deadline=None)
@given(islands())
def test_regions_match_networkx_components(island):
    for t, comps in island.regions.items():
        sub = island.graph.subgraph([h for h in island.index if island.terrain[h] == t])
        ref = sorted(
            (frozenset(c) for c in nx.connected_components(sub)), key=lambda c: (-len(c), min(c))
        )
        assert comps == ref
        assert len(comps) == 1 or len(comps[0]) > len(comps[1])


@settings(max_examples=60, deadline=None)
@given(islands(with_landmarks=True))
def test_distance_fields_are_hex_distances(island):
    """The NetworkX multi-source BFS over the lattice equals the least hex distance, whatever
    the sources (landmarks, the sea border, a hex far out at sea)."""
    for sources in (
        [lm.space for lm in island.landmarks],
        list(island.sea_border),
        [Hex(9, -4)],
    ):
        field = island.distance_field(sources)
        if not sources:
            assert field == {}
            continue
        assert field == {h: min(distance(h, s) for s in sources) for h in island.index}
        assert island.distance_field(sources, cutoff=1) == {
            h: d for h, d in field.items() if d <= 1
        }


@settings(max_examples=60, deadline=None)
@given(islands(with_landmarks=True))
def test_json_round_trip(island):
    data = island.to_json()
    again = island_from_json(data)
    assert again.to_json() == data
    assert again.terrain == island.terrain and again.landmarks == island.landmarks
    assert again.regions == island.regions


# --- JSON loading: every refusal names the field ---------------------------------------------


def test_json_form_loads_landmarks(small):
    data = small_json(
        landmarks=[
            {"q": 0, "r": 0, "kind": "hut"},
            {"q": 0, "r": 1, "kind": "statue", "facing": 3},
        ]
    )
    island = island_from_json(data, name="x")
    assert island.name == "x"
    assert island.landmarks == (
        Landmark("hut", Hex(0, 0)),
        Landmark("statue", Hex(0, 1), 3),
    )
    assert island.to_json()["landmarks"][1] == {"q": 0, "r": 1, "kind": "statue", "facing": 3}


BAD = [
    ([], "island", "must be an object"),
    ({"spaces": "no"}, "spaces", "must be a list"),
    ({"spaces": []}, "spaces", "at least one space"),
    ({"spaces": [{"q": 0, "r": 0, "terrain": "jungle"}], "colour": 1}, "colour", "unknown field"),
    ({"spaces": [{"q": 0, "r": 0, "terrain": "swamp"}]}, "spaces[0].terrain", "unknown terrain"),
    ({"spaces": [{"q": 0, "r": 0}]}, "spaces[0].terrain", "unknown terrain"),
    ({"spaces": [{"q": 0.5, "r": 0, "terrain": "jungle"}]}, "spaces[0].q", "must be an integer"),
    ({"spaces": [{"q": "1", "r": 0, "terrain": "jungle"}]}, "spaces[0].q", "must be an integer"),
    ({"spaces": [{"q": True, "r": 0, "terrain": "jungle"}]}, "spaces[0].q", "must be an integer"),
    ({"spaces": [{"q": 0, "terrain": "jungle"}]}, "spaces[0].r", "must be an integer"),
    ({"spaces": ["x"]}, "spaces[0]", "must be an object"),
    (
        {"spaces": [{"q": 0, "r": 0, "terrain": "jungle"}, {"q": 0, "r": 0, "terrain": "beach"}]},
        "spaces[1]",
        "duplicate space (0, 0)",
    ),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD)
def test_bad_spaces_are_refused(data, field, message):
    with pytest.raises(InvalidInput) as e:
        island_from_json(data)
    assert e.value.field == field
    assert message in e.value.message


BAD_LANDMARKS = [
    ([{"q": 0, "r": 0, "kind": "castle"}], "landmarks[0].kind", "unknown landmark kind"),
    ([{"q": 9, "r": 9, "kind": "hut"}], "landmarks[0]", "not on an island space"),
    (
        [{"q": 0, "r": 0, "kind": "hut"}, {"q": 0, "r": 0, "kind": "palm"}],
        "landmarks[1]",
        "two landmarks on (0, 0)",
    ),
    ([{"q": 0, "r": 1, "kind": "statue"}], "landmarks[0].facing", "needs a facing 0-5"),
    (
        [{"q": 0, "r": 1, "kind": "statue", "facing": 6}],
        "landmarks[0].facing",
        "facing must be 0-5",
    ),
    (
        [{"q": 0, "r": 1, "kind": "statue", "facing": -1}],
        "landmarks[0].facing",
        "facing must be 0-5",
    ),
    (
        [{"q": 0, "r": 1, "kind": "statue", "facing": "N"}],
        "landmarks[0].facing",
        "must be an integer",
    ),
    ([{"q": 0, "r": 0, "kind": "hut", "facing": 2}], "landmarks[0].facing", "only statues"),
    ([{"q": 0, "r": "0", "kind": "hut"}], "landmarks[0].r", "must be an integer"),
    ("hut", "landmarks", "must be a list"),
]


@pytest.mark.parametrize(("landmarks", "field", "message"), BAD_LANDMARKS)
def test_bad_landmarks_are_refused(landmarks, field, message):
    with pytest.raises(InvalidInput) as e:
        island_from_json(small_json(landmarks=landmarks))
    assert e.value.field == field
    assert message in e.value.message


def test_tied_island_in_json_names_the_terrain_under_the_prefix():
    data = small_json()
    data["spaces"][8]["terrain"] = "mountain"  # (-1, 2): grassland now ties 1-1
    with pytest.raises(InvalidInput) as e:
        island_from_json(data, field="island")
    assert e.value.field == "island.spaces.grassland"
    assert "largest region must be unique" in e.value.message


def test_field_prefix_is_applied_to_paths():
    with pytest.raises(InvalidInput) as e:
        island_from_json({"spaces": [{"q": 0, "r": 0, "terrain": "ice"}]}, field="island")
    assert e.value.field == "island.spaces[0].terrain"


def test_parse_space_forms():
    assert parse_space([1, -2], "s") == Hex(1, -2)
    assert parse_space({"q": 1, "r": -2}, "s") == Hex(1, -2)
    with pytest.raises(InvalidInput) as e:
        parse_space([1], "s")
    assert e.value.field == "s"
    with pytest.raises(InvalidInput) as e:
        parse_space([1, "x"], "s")
    assert e.value.field == "s[1]"


# --- landmark violations ---------------------------------------------------------------------


def test_landmark_violations_reports_each_broken_rule(small):
    broken = small.with_landmarks(
        [
            Landmark("hut", Hex(0, 0)),
            Landmark("hut", Hex(2, 0)),  # 2 apart
            Landmark("palm", Hex(1, 2)),  # on the lake
            Landmark("statue", Hex(3, 0), 0),  # next to the sea
        ]
    )
    problems = landmark_violations(broken)
    assert any("huts at (0, 0) and (2, 0) are 2 apart" in p for p in problems)
    assert any("palm at (1, 2) stands on lake" in p for p in problems)
    assert any("statue at (3, 0) is next to the sea" in p for p in problems)
    assert len(problems) == 3


def test_landmark_violations_empty_when_all_is_well(small):
    fine = small.with_landmarks([Landmark("statue", Hex(0, 1), 1), Landmark("hut", Hex(3, 0))])
    assert landmark_violations(fine) == []


def test_a_cut_field_needs_no_more_lattice_than_the_island_far_apart_spaces_or_not():
    from hexmap.fields import lattice
    from hexmap.island_json import island_from_json

    far = island_from_json(
        {
            "spaces": [
                {"q": 0, "r": 1, "terrain": "lake"},
                {"q": 12082, "r": 819085, "terrain": "beach"},
            ]
        }
    )
    graph = lattice(far.terrain, radius=2)
    assert len(graph) == 2 * 19  # two balls of radius 2, not a box 800,000 hexes wide
    field = far.distance_field(far.sea_border, cutoff=2)
    assert field == {Hex(0, 1): 1, Hex(12082, 819085): 1}
