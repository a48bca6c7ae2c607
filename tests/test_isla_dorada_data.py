"""Isla Dorada's data files against the rules (``../shared/rules/isla_dorada.md``): the map's
shape (reachability, no dead ends, rivers that end on a lake or the sea) and the published card
totals."""

from __future__ import annotations

from collections import Counter

from games.isla_dorada import tables as T


def reach(start: int, exits=T.EXITS) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for _, d in exits[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_thirty_to_forty_named_locations_in_both_languages_with_positions():
    locs = T.MAP_DATA["locations"]
    assert 30 <= len(locs) <= 40
    assert len({x["id"] for x in locs}) == len(locs)
    for x in locs:
        assert x["name"].strip() and x["name_zh"].strip()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in x["name_zh"])
        assert 0 <= x["x"] <= T.MAP_DATA["width"] and 0 <= x["y"] <= T.MAP_DATA["height"]
    assert len({x["name"] for x in locs}) == len(locs) == len({x["name_zh"] for x in locs})
    assert T.MAP_DATA["crash_site"] in {x["id"] for x in locs}


def test_routes_are_typed_join_two_locations_and_never_double():
    pairs = set()
    for r in T.MAP_DATA["routes"]:
        assert r["type"] in T.ROUTE_TYPES
        assert r["a"] != r["b"] and r["a"] in T.LOC_INDEX and r["b"] in T.LOC_INDEX
        pair = frozenset((r["a"], r["b"]))
        assert pair not in pairs, r
        pairs.add(pair)
    assert set(T.ROUTE_TYPE) == set(T.ROUTE_TYPES)


def test_every_location_reachable_from_the_crash_site_and_back():
    assert reach(T.CRASH) == set(range(T.LOC_COUNT))
    for loc in range(T.LOC_COUNT):
        assert T.CRASH in reach(loc), T.LOC_IDS[loc]


def test_no_dead_ends_even_with_both_figures_on_the_routes_out():
    """Three routes out of every place: Bigfoot and the Leviathan block at most two."""
    for loc in range(T.LOC_COUNT):
        assert len(T.EXITS[loc]) >= 3, T.LOC_IDS[loc]


def test_rivers_flow_one_way_never_split_or_loop_and_end_on_a_lake_or_the_sea():
    rivers = [r for r in range(T.ROUTE_COUNT) if T.ROUTE_TYPE[r] == "river"]
    out = Counter(T.ROUTE_A[r] for r in rivers)
    assert max(out.values()) == 1  # no split: a continuation is never a choice of rivers
    downstream = {T.ROUTE_A[r]: T.ROUTE_B[r] for r in rivers}
    for r in rivers:
        # one way: leaving b along r is impossible
        assert r not in {x for x, _ in T.EXITS[T.ROUTE_B[r]]}
        loc, seen = T.ROUTE_B[r], set()
        while loc in downstream:
            assert loc not in seen, "a river loops"
            seen.add(loc)
            loc = downstream[loc]
        water = {
            T.ROUTE_TYPE[x] for x in range(T.ROUTE_COUNT) if loc in (T.ROUTE_A[x], T.ROUTE_B[x])
        }
        assert water & {"lake", "sea"}, f"the river through {T.LOC_IDS[T.ROUTE_B[r]]} ends inland"


def test_every_location_has_a_symbol_family_six_each_none_at_the_crash_site():
    families = Counter(T.LOC_FAMILY[loc] for loc in range(T.LOC_COUNT) if loc != T.CRASH)
    assert T.LOC_FAMILY[T.CRASH] is None
    assert set(families) == set(T.FAMILIES) and set(families.values()) == {6}


def test_published_totals():
    adventure = Counter(T.ADV_KIND)
    assert T.ADV_COUNT == 112
    assert Counter(T.GOAL_DECK) == {"start": 18, "treasure": 54, "curse": 18, "destiny": 22}
    assert T.START_GOLD == 10 and T.MARKERS == 16 and T.RED_MARKERS == (4, 9)
    assert T.NEWS == {4: (2, 1), 9: (3, 2)} and T.HAND_LIMIT == 10 and T.DISPLAY_SIZE == 4
    # every kind the rules name is in the deck
    for kind in (
        "yak",
        "kamel",
        "gonogo",
        "kayak",
        "drako",
        "zeppelin",
        "ovetos",
        "juju",
        "shaman",
        "sangaia",
        "bongo",
        "bonus",
        "bigfoot",
        "leviathan",
    ):
        assert adventure[kind] > 0, kind
    assert sum(adventure[k] for k in T.LIGHTNING_KINDS) >= 10


def test_card_facts_follow_the_rules():
    facts = {k["kind"]: k for k in T.ADVENTURE_KINDS}
    assert [
        facts[k]["value"] for k in ("yak", "kamel", "gonogo", "kayak", "drako", "zeppelin")
    ] == [
        1,
        1,
        1,
        2,
        2,
        5,
    ]
    assert facts["drako"]["gold"] == 1 and facts["zeppelin"]["gold"] == 3
    assert {
        "yak": {"mountain"},
        "kamel": {"desert"},
        "gonogo": {"jungle"},
        "kayak": {"river", "lake", "sea"},
    } == T.PAYS
    assert set(T.WILD_KINDS) == {"drako", "zeppelin"}
    # the six adventure cards dealt at setup exclude lightning cards: enough plain ones for 6
    assert sum(1 for c in range(T.ADV_COUNT) if not T.ADV_LIGHTNING[c]) >= 6 * 6 + 4


def test_goal_cards_name_real_locations_and_missions_are_checkable():
    for g in range(T.GOAL_COUNT):
        if T.GOAL_DECK[g] == "destiny":
            m = T.GOAL_MISSION[g]
            assert m is not None and m["points"] > 0
            assert m["mission"] in {
                "family",
                "pair",
                "flights",
                "rivers",
                "leader",
                "treasures",
                "gold",
            }
            if m["mission"] == "family":
                assert m["family"] in T.FAMILIES and 0 < m["count"] <= 6
            if m["mission"] == "pair":
                assert all(
                    x in T.LOC_INDEX and x != T.MAP_DATA["crash_site"] for x in m["locations"]
                )
        else:
            assert T.GOAL_LOC[g] >= 0 and T.GOAL_LOC[g] != T.CRASH and T.GOAL_POINTS[g] > 0
    bonus = [c for c in range(T.ADV_COUNT) if T.ADV_KIND[c] == "bonus"]
    assert {T.ADV_FAMILY[c] for c in bonus} == set(T.FAMILIES)
    # every location has at least one standard treasure card
    assert {T.GOAL_LOC[g] for g in T.GOALS_OF["treasure"]} == set(range(T.LOC_COUNT)) - {T.CRASH}


def test_the_map_bounds_a_game_s_rounds():
    """The engine docstring's bound on a game's rounds rests on three facts of the map: every
    location has at least three routes out (the two figures block two at most, so the leader
    can always open at 0), no two routes join the same two places, and no river leaves the
    crash site (so a move from there ends elsewhere, but by a flight)."""
    assert min(len(T.EXITS[loc]) for loc in range(T.LOC_COUNT)) >= 3
    ends = [frozenset((T.ROUTE_A[r], T.ROUTE_B[r])) for r in range(T.ROUTE_COUNT)]
    assert len(set(ends)) == T.ROUTE_COUNT
    assert not any(T.ROUTE_TYPE[r] == "river" for r, _ in T.EXITS[T.CRASH])
    assert all(d != T.CRASH for _, d in T.EXITS[T.CRASH])
