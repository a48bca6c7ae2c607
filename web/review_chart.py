"""The review's chart: each seat's expected gold (or score) over a game, as a small SVG.

Drawn on the server with ElementTree (no script, no CDN, nothing fetched): one polyline per
seat, each with its own colour *and* dash pattern (told apart without colour too), axes with a
few round ticks, a legend, ``<title>``/``<desc>`` for screen readers. The x axis is the step
(0 … steps); ``data-x0``/``data-dx`` on the plot tell the page where step ``k`` lies
(``x0 + k × dx``), so it can move the ``#chart-cursor`` line as the reviewer steps without
asking for a new picture. Missing values (``None``) break a seat's line.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

#: Seat colours (readable on white, 3:1 at least) and dash patterns, by seat.
COLOURS = ("#1f5fa8", "#b3261e", "#2e7d32", "#8a5a00", "#6a1b9a", "#00696b")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 12, 72


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering ``[low, high]`` (1, 2 or 5 × a power of 10)."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0]
    if high <= low:
        high = low + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    out = []
    v = start
    while v <= high + step * 1e-9:
        out.append(round(v, 10))
        v += step
    if out[-1] < high:
        out.append(round(v, 10))
    return out


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def chart_svg(
    values: Sequence[Sequence[float | None]],
    names: Sequence[str],
    *,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """The chart as an SVG document (a string). ``values[seat][step]``; ``names[seat]``."""
    steps = max((len(v) for v in values), default=1) - 1
    known = [x for v in values for x in v if x is not None]
    ticks = nice_ticks(min(known, default=0.0), max(known, default=1.0))
    y_low, y_high = ticks[0], ticks[-1]
    plot_w = width - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = height - MARGIN_TOP - MARGIN_BOTTOM
    dx = plot_w / max(steps, 1)

    def x_of(step: int) -> float:
        return MARGIN_LEFT + step * dx

    def y_of(v: float) -> float:
        return MARGIN_TOP + plot_h * (1 - (v - y_low) / ((y_high - y_low) or 1))

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "aria-labelledby": "chart-title chart-desc",
            "class": "review-chart",
            "font-family": "system-ui, sans-serif",
            "font-size": "11",
        },
    )
    ET.SubElement(svg, "title", {"id": "chart-title"}).text = title
    ET.SubElement(svg, "desc", {"id": "chart-desc"}).text = description
    plot = ET.SubElement(
        svg,
        "g",
        {
            "class": "plot",
            "data-x0": _fmt(MARGIN_LEFT),
            "data-dx": f"{dx:.4f}",
            "data-steps": str(steps),
        },
    )
    grid = ET.SubElement(plot, "g", {"class": "axis y", "fill": "#333"})
    for t in ticks:
        y = y_of(t)
        ET.SubElement(
            grid,
            "line",
            {
                "x1": _fmt(MARGIN_LEFT),
                "x2": _fmt(width - MARGIN_RIGHT),
                "y1": _fmt(y),
                "y2": _fmt(y),
                "stroke": "#d0d0d0",
                "stroke-width": "1",
            },
        )
        label = ET.SubElement(
            grid, "text", {"x": _fmt(MARGIN_LEFT - 6), "y": _fmt(y + 4), "text-anchor": "end"}
        )
        label.text = _fmt(t)
    x_axis = ET.SubElement(plot, "g", {"class": "axis x", "fill": "#333"})
    for t in nice_ticks(0, max(steps, 1), 6):
        if t > steps:
            continue
        x = x_of(int(t))
        ET.SubElement(
            x_axis,
            "line",
            {
                "x1": _fmt(x),
                "x2": _fmt(x),
                "y1": _fmt(MARGIN_TOP + plot_h),
                "y2": _fmt(MARGIN_TOP + plot_h + 4),
                "stroke": "#333",
            },
        )
        ET.SubElement(
            x_axis,
            "text",
            {"x": _fmt(x), "y": _fmt(MARGIN_TOP + plot_h + 16), "text-anchor": "middle"},
        ).text = str(int(t))
    ET.SubElement(
        x_axis,
        "text",
        {
            "x": _fmt(MARGIN_LEFT + plot_w / 2),
            "y": _fmt(MARGIN_TOP + plot_h + 32),
            "text-anchor": "middle",
        },
    ).text = x_label
    ET.SubElement(
        svg,
        "text",
        {
            "x": "12",
            "y": _fmt(MARGIN_TOP + plot_h / 2),
            "text-anchor": "middle",
            "transform": f"rotate(-90 12 {_fmt(MARGIN_TOP + plot_h / 2)})",
            "fill": "#333",
        },
    ).text = y_label
    lines = ET.SubElement(plot, "g", {"class": "series", "fill": "none", "stroke-width": "2"})
    for seat, series in enumerate(values):
        colour, dash = COLOURS[seat % len(COLOURS)], DASHES[seat % len(DASHES)]
        for run in _runs(series):
            points = " ".join(f"{_fmt(x_of(k))},{_fmt(y_of(v))}" for k, v in run)
            attrs = {"points": points, "stroke": colour, "class": f"seat-{seat}"}
            if dash:
                attrs["stroke-dasharray"] = dash
            if len(run) == 1:
                attrs["stroke-linecap"] = "round"
            ET.SubElement(lines, "polyline", attrs)
    ET.SubElement(
        plot,
        "line",
        {
            "id": "chart-cursor",
            "x1": _fmt(MARGIN_LEFT),
            "x2": _fmt(MARGIN_LEFT),
            "y1": _fmt(MARGIN_TOP),
            "y2": _fmt(MARGIN_TOP + plot_h),
            "stroke": "#111",
            "stroke-width": "1",
            "stroke-dasharray": "3 2",
        },
    )
    legend = ET.SubElement(svg, "g", {"class": "legend", "fill": "#222"})
    per_row = 3
    cell = (width - MARGIN_LEFT) / per_row
    for seat, name in enumerate(names):
        x = MARGIN_LEFT + (seat % per_row) * cell
        y = MARGIN_TOP + plot_h + 50 + (seat // per_row) * 14
        attrs = {
            "x1": _fmt(x),
            "x2": _fmt(x + 22),
            "y1": _fmt(y - 4),
            "y2": _fmt(y - 4),
            "stroke": COLOURS[seat % len(COLOURS)],
            "stroke-width": "2",
        }
        if DASHES[seat % len(DASHES)]:
            attrs["stroke-dasharray"] = DASHES[seat % len(DASHES)]
        ET.SubElement(legend, "line", attrs)
        ET.SubElement(legend, "text", {"x": _fmt(x + 28), "y": _fmt(y)}).text = name
    return ET.tostring(svg, encoding="unicode")


def _runs(series: Sequence[float | None]) -> list[list[tuple[int, float]]]:
    """The series cut into runs of known values (``None`` breaks the line)."""
    runs: list[list[tuple[int, float]]] = []
    current: list[tuple[int, float]] = []
    for k, v in enumerate(series):
        if v is None:
            if current:
                runs.append(current)
            current = []
        else:
            current.append((k, float(v)))
    if current:
        runs.append(current)
    return runs
