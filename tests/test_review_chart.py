"""The review chart (``web.review_chart``): a standalone SVG, one line per seat, nothing fetched."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from web.review_chart import chart_svg, nice_ticks

NS = {"s": "http://www.w3.org/2000/svg"}


def _chart(values, names=None):
    names = names or [f"Seat {i + 1}" for i in range(len(values))]
    text = chart_svg(
        values, names, title="Expected gold", description="per step", x_label="Step", y_label="Gold"
    )
    return text, ET.fromstring(text)


def test_one_line_per_seat_with_a_point_per_step_inside_the_plot():
    values = [[0, 1, 2.5, 4, 10], [0, 0, 1, 1, 2], [0.0, 3.0, 3.0, 2.0, 7.0]]
    text, svg = _chart(values)
    lines = svg.findall(".//s:g[@class='series']/s:polyline", NS)
    assert [line.get("class") for line in lines] == ["seat-0", "seat-1", "seat-2"]
    width, height = (float(x) for x in svg.get("viewBox").split()[2:])
    ys = []
    for line, series in zip(lines, values, strict=True):
        points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        assert len(points) == len(series)
        xs = [x for x, _ in points]
        assert xs == sorted(xs) and all(0 < x < width for x in xs)
        ys.append([y for _, y in points])
        assert all(0 < y < height for y in ys[-1])
    # a higher value is drawn higher up (smaller y)
    assert ys[0][4] < ys[0][0] and ys[2][1] < ys[2][3]
    # colours and dashes differ, so lines are told apart without colour too
    assert len({line.get("stroke") for line in lines}) == 3
    assert len({line.get("stroke-dasharray") for line in lines}) == 3


def test_the_chart_is_accessible_and_self_contained():
    text, svg = _chart([[1, 2, 3]])
    assert svg.get("role") == "img"
    assert svg.find("s:title", NS).text == "Expected gold" and svg.find("s:desc", NS).text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "<script" not in text and "href" not in text
    assert svg.find(".//s:line[@id='chart-cursor']", NS) is not None
    plot = svg.find(".//s:g[@class='plot']", NS)
    assert plot.get("data-steps") == "2" and float(plot.get("data-dx")) > 0
    assert [t.text for t in svg.findall(".//s:g[@class='legend']/s:text", NS)] == ["Seat 1"]


def test_missing_values_break_the_line():
    _, svg = _chart([[1, None, 3, 4]])
    lines = svg.findall(".//s:g[@class='series']/s:polyline", NS)
    assert [len(line.get("points").split()) for line in lines] == [1, 2]


def test_round_ticks_cover_the_range():
    for low, high in [(0, 47), (-7, 9), (0.2, 0.9), (5, 5), (0, 1000)]:
        ticks = nice_ticks(low, high)
        assert ticks[0] <= low and ticks[-1] >= high and len(ticks) <= 8
        steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:], strict=False)}
        assert len(steps) == 1
