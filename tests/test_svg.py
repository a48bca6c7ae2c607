"""The SVG picture: hexes a UI can address, colour-blind-safe terrains, landmarks and overlays."""

from __future__ import annotations

import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hexmap import InvalidInput
from hexmap.__main__ import main as cli_main
from hexmap.catalog import classic_island, generated_island
from hexmap.hexes import DIRECTIONS, to_pixel
from hexmap.svg import TERRAIN_STYLE, render_svg
from hexmap.terrain import TERRAINS

NS = {"s": "http://www.w3.org/2000/svg"}
ROOT = Path(__file__).resolve().parent.parent


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.fixture(scope="module")
def island():
    return classic_island("classic-3")


@pytest.fixture(scope="module")
def root(island):
    return parse(render_svg(island))


def test_is_a_well_formed_svg_with_a_view_box(root, island):
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.get("viewBox").split()) == 4
    assert root.find("s:title", NS).text == "classic-3"


def test_every_space_is_one_addressable_polygon(root, island):
    polys = root.findall(".//s:g[@class='hexes']/s:polygon", NS)
    assert len(polys) == len(island)
    seen = set()
    for p in polys:
        q, r = int(p.get("data-q")), int(p.get("data-r"))
        terrain = island.terrain[(q, r)]
        assert p.get("class") == f"hex terrain-{terrain}"
        assert p.get("data-terrain") == terrain
        assert p.get("fill") == f"url(#terrain-{terrain})"
        assert len(p.get("points").split()) == 6
        seen.add((q, r))
    assert seen == set(island.index)


def test_terrains_differ_in_texture_and_lightness(root):
    textures = {}
    for t in TERRAINS:
        pat = root.find(f".//s:pattern[@id='terrain-{t}']", NS)
        assert pat is not None
        base, *marks = list(pat)
        assert base.get("fill") == TERRAIN_STYLE[t][0]
        assert marks, f"{t} has no texture"
        textures[t] = "".join(ET.tostring(m, encoding="unicode") for m in marks)
    assert len(set(textures.values())) == 6  # no two terrains share a texture

    def luminance(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    # the land terrains a colour-blind player confuses most (greens, sand, rock) differ in
    # lightness too, not only in hue
    land = sorted(
        luminance(TERRAIN_STYLE[t][0]) for t in ("jungle", "grassland", "beach", "mountain")
    )
    assert all(b - a > 0.08 for a, b in zip(land, land[1:], strict=False))


def test_landmarks_have_symbols_and_statues_have_arrows(root, island):
    groups = root.findall(".//s:g[@class='landmarks']/s:g", NS)
    assert len(groups) == 10
    for g in groups:
        kind = g.get("class").split()[1]
        q, r = int(g.get("data-q")), int(g.get("data-r"))
        assert island.landmark_at((q, r)).kind == kind
        assert g.find("s:use", NS).get("href") == f"#landmark-{kind}"
        line = g.find("s:line", NS)
        if kind == "statue":
            assert line.get("marker-end") == "url(#arrow-head)"
            assert int(g.get("data-facing")) == island.landmark_at((q, r)).facing
        else:
            assert line is None
    for kind in ("palm", "hut", "statue"):
        assert root.find(f".//s:symbol[@id='landmark-{kind}']", NS) is not None


def _arrow_direction(line: ET.Element) -> int:
    dx = float(line.get("x2")) - float(line.get("x1"))
    dy = float(line.get("y2")) - float(line.get("y1"))
    angle = math.atan2(dy, dx)
    best = []
    for d, step in enumerate(DIRECTIONS):
        x, y = to_pixel(step, 1.0)
        best.append((abs(math.remainder(math.atan2(y, x) - angle, math.tau)), d))
    return min(best)[1]


def test_statue_arrows_point_the_way_the_statue_faces(root, island):
    for g in root.findall(".//s:g[@class='landmark statue']", NS):
        facing = int(g.get("data-facing"))
        assert _arrow_direction(g.find("s:line", NS)) == facing


def test_statue_facings_can_be_overridden(island):
    statue = island.landmarks_of("statue")[0]
    new = (statue.facing + 2) % 6
    root = parse(render_svg(island, statue_facings={statue.space: new}))
    g = root.find(f".//s:g[@data-q='{statue.space.q}'][@data-r='{statue.space.r}']", NS)
    assert int(g.get("data-facing")) == new
    assert _arrow_direction(g.find("s:line", NS)) == new
    with pytest.raises(InvalidInput) as e:
        render_svg(island, statue_facings={statue.space: 9})
    assert "facing must be 0-5" in e.value.message
    hut = island.landmarks_of("hut")[0].space
    with pytest.raises(InvalidInput) as e:
        render_svg(island, statue_facings={hut: 1})
    assert e.value.field == "statue_facings" and "holds no statue" in e.value.message


def test_coordinates_are_optional(island):
    assert parse(render_svg(island)).find(".//s:g[@class='coords']", NS) is None
    texts = parse(render_svg(island, show_coords=True)).findall(".//s:text[@class='coord']", NS)
    assert len(texts) == len(island)
    assert {t.text for t in texts} == {f"{h.q},{h.r}" for h in island.index}


def test_highlights_amulets_and_atvs(island):
    a, b, c = island.index[:3]
    root = parse(
        render_svg(
            island,
            highlights={"candidates": [a, b], "chosen": [c]},
            amulets=[a],
            atvs=[(b, "#ff0000"), (b, "blue")],
        )
    )
    cand = root.findall(".//s:polygon[@class='highlight candidates']", NS)
    assert {(int(p.get("data-q")), int(p.get("data-r"))) for p in cand} == {a, b}
    assert len(root.findall(".//s:polygon[@class='highlight chosen']", NS)) == 1
    amulet = root.findall(".//s:polygon[@class='amulet']", NS)
    assert len(amulet) == 1 and amulet[0].get("data-q") == str(a.q)
    atvs = root.findall(".//s:g[@class='atvs']/s:rect", NS)
    assert [x.get("fill") for x in atvs] == ["#ff0000", "blue"]
    assert atvs[0].get("x") != atvs[1].get("x")  # two ATVs on one space stand side by side


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"highlights": {"bad class!": [(0, 0)]}}, "highlights"),
        ({"highlights": {"ok": [(99, 99)]}}, "highlights.ok[0]"),
        ({"amulets": [(99, 99)]}, "amulets[0]"),
        ({"amulets": [("a", 1)]}, "amulets[0]"),
        ({"atvs": [((99, 99), "red")]}, "atvs[0].space"),
        ({"atvs": [((0, 1), "red;stroke:0")]}, "atvs[0].colour"),
        ({"atvs": ["x"]}, "atvs[0]"),
        ({"size": 0}, "size"),
        ({"size": "big"}, "size"),
    ],
)
def test_bad_options_are_refused_with_the_field(island, kwargs, field):
    assert (0, 1) in island  # the colour case uses a real space
    with pytest.raises(InvalidInput) as e:
        render_svg(island, **kwargs)
    assert e.value.field == field


def test_rendering_is_deterministic():
    island = generated_island(42)
    assert render_svg(island) == render_svg(island)
    assert render_svg(island, size=10) != render_svg(island, size=20)


def test_command_line_renders_islands():
    out = subprocess.run(
        [sys.executable, "-m", "hexmap", "render", "classic-3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0
    assert parse(out.stdout).find("s:title", NS).text == "classic-3"


def test_command_line_options(capsys):
    assert cli_main(["render", "generated:42", "--coords", "--landmarks-seed", "5"]) == 0
    root = parse(capsys.readouterr().out)
    assert root.find("s:title", NS).text == "generated-42"
    assert root.find(".//s:g[@class='coords']", NS) is not None
    statues = [
        (int(g.get("data-q")), int(g.get("data-r")))
        for g in root.findall(".//s:g[@class='landmark statue']", NS)
    ]
    assert statues == [tuple(lm.space) for lm in generated_island(42, 5).landmarks_of("statue")]
    assert cli_main(["list"]) == 0
    assert capsys.readouterr().out.split() == [f"classic-{i}" for i in range(1, 7)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["render", "classic-9"], "no built-in island named 'classic-9'"),
        (["render", "generated:-4"], "name: a seed must be a non-negative decimal integer"),
        (["render", "classic-1", "--landmarks-seed", "x"], "--landmarks-seed"),
    ],
)
def test_command_line_reports_bad_input(capsys, args, message):
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


def test_print_textures_are_flat_fills_with_marks_not_patterns(island):
    """``textures="marks"`` (the print sheet): no pattern fill, a flat base colour per hex and
    the texture's marks drawn once on each hex (pattern fills blow a PDF up to megabytes)."""
    root = parse(render_svg(island, textures="marks"))
    ns = "{http://www.w3.org/2000/svg}"
    assert not list(root.iter(f"{ns}pattern"))
    hexes = [p for p in root.iter(f"{ns}polygon") if "hex" in p.get("class", "").split()]
    assert hexes and all(p.get("fill") == TERRAIN_STYLE[p.get("data-terrain")][0] for p in hexes)
    marks = [u for u in root.iter(f"{ns}use") if u.get("class") == "marks"]
    assert len(marks) == len(hexes)
    with pytest.raises(InvalidInput):
        render_svg(island, textures="glitter")
