"""The benches (``bench/``) and the figures the README quotes.

Speed is measured by the benches, not asserted here: these tests check that each bench runs in
its tiny configuration (``--quick``) and prints its rows, that ``bench/results.json`` holds a
full run of every bench, and that the README's figures are that file's (``bench/run.py`` writes
both; rerun ``make bench`` when a bench's figures change).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from bench import run
from bench.common import MIN_ROUNDS, Figure, quantile, row

RESULTS = json.loads(run.RESULTS.read_text(encoding="utf-8"))


def test_the_readme_quotes_the_figures_of_results_json():
    readme = run.README.read_text(encoding="utf-8")
    assert readme.count(run.README_BEGIN) == 1 and readme.count(run.README_END) == 1
    assert run.readme_section(RESULTS) in readme


def test_results_json_is_a_full_run_of_every_bench():
    assert not RESULTS["quick"]
    assert list(RESULTS["benches"]) == run.benches()
    for name, bench in RESULTS["benches"].items():
        assert bench["rounds"] >= MIN_ROUNDS, name
        for f in bench["figures"]:
            assert f["key"].startswith(name + "."), f["key"]
            assert len(f["rounds"]) in (1, bench["rounds"]), f["key"]  # 1: a peak, or once
            assert f["low"] <= f["median"] <= f["high"]


def test_a_figure_is_its_rounds_median_and_range_against_its_target():
    f = Figure("x.y", "a ratio", [0.8, 0.95, 0.92, 0.91, 0.7], "x", (">=", 0.9))
    assert (f.median, f.low, f.high, f.passed) == (0.91, 0.7, 0.95, True)
    assert Figure("x.z", "µs", [5.0, 4.2, 4.1], "µs", ("<=", 4.0)).passed is False
    assert Figure("x.w", "no target", [1.0], "").passed is None
    line = row(f)
    assert "0.910" in line and "[0.700 – 0.950]" in line and "≥ 0.900 x pass" in line
    with pytest.raises(ValueError):
        Figure("x.v", "empty", [], "")


def test_a_quantile_is_the_sorted_values_nearest_rank_below():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert [quantile(values, q) for q in (0.0, 0.5, 0.79, 0.8, 0.99, 1.0)] == [
        1.0,
        3.0,
        4.0,
        5.0,
        5.0,
        5.0,
    ]
    assert quantile(iter([7.0]), 0.99) == 7.0
    assert math.isnan(quantile([], 0.5))


@pytest.mark.slow
@pytest.mark.parametrize("name", run.benches())
def test_a_bench_runs_its_tiny_configuration_and_prints_its_rows(tmp_path, name):
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [sys.executable, f"bench/{name}_bench.py", "--quick", "--json", str(out)],
        cwd=run.ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    data = json.loads(out.read_text())
    assert data["quick"] and data["figures"]
    for f in data["figures"]:
        assert f["label"] in proc.stdout and math.isfinite(f["median"]), f
    known = {f["key"] for f in RESULTS["benches"][name]["figures"]}
    assert {f["key"] for f in data["figures"]} <= known  # results.json has a row for each


def test_merging_a_strong_bots_row_replaces_its_figures_and_keeps_the_other_rows(tmp_path):
    from argparse import Namespace

    from bench import strong_bots_bench as sb

    path = tmp_path / "results.json"
    path.write_text(json.dumps(RESULTS), encoding="utf-8")
    before = RESULTS["benches"]["strong_bots"]["figures"]
    fresh = Figure("strong_bots.dragons_gold_5_share", "DG", [0.5], "", (">=", 0.35)).as_json()
    args = Namespace(games=400, jobs=2, rounds=5)
    sb.merge(path, [sb.ROWS["dragons_gold-5"]], [fresh], args, wall_s=60, now="then")
    bench = json.loads(path.read_text(encoding="utf-8"))["benches"]["strong_bots"]
    keys = [f["key"] for f in bench["figures"]]
    assert keys.count("strong_bots.dragons_gold_5_share") == 1
    assert "strong_bots.dragons_gold_5_think_p99_ms" not in keys  # the row's figures, replaced
    assert [f for f in bench["figures"] if not f["key"].startswith("strong_bots.dragons")] == [
        f for f in before if not f["key"].startswith("strong_bots.dragons")
    ]
    assert keys.index("strong_bots.dragons_gold_5_share") == [f["key"] for f in before].index(
        "strong_bots.dragons_gold_5_share"
    )
    facts = bench["facts"]["dragons_gold"]
    assert (facts["games"], facts["jobs"], facts["date"]) == (400, 2, "then")
    assert facts["budget"] == sb.budget_text("dragons_gold")
    assert bench["date"] == "then"
