"""``make bench``: every ``bench/*_bench.py``, one table, ``bench/results.json``, and the
README's figures.

Each bench runs in its own process with ``--json`` (``--quick``: passed on, a tiny run that
only checks the benches work). A line per bench as it ends, then one table of every figure:
its key, the median of its rounds, their range, the target and whether the median meets it.
``bench/results.json`` keeps the run: every figure with its rounds, and the machine (CPUs, the
load average before and after each bench, Python, the worker ``gunicorn.conf.py`` names). A full
run also rewrites the README's generated section (between ``README_BEGIN`` and ``README_END``)
from it, so the README quotes the figures of one run, never numbers copied by hand
(``tests/test_bench_figures.py`` holds the two files together).

Usage: ``.venv/bin/python bench/run.py [--quick] [--only solver,http] [--verbose]``;
``--readme``: only rewrite the README's section from ``bench/results.json``. ``--only`` keeps the
other benches' figures of the last run in ``results.json`` (each bench keeps the date and worker
it was measured with, and the README says the span).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import number, target_text, verdict  # noqa: E402

BENCH = ROOT / "bench"
RESULTS = BENCH / "results.json"
README = ROOT / "README.md"
README_BEGIN = "<!-- bench figures: written by bench/run.py from bench/results.json -->"
README_END = "<!-- end of the bench figures -->"
#: A bench that runs longer than this is stopped (and the run fails): the longest,
#: ``strong_bots_bench.py`` (400 games in each of its six rows), took 56 minutes of two idle
#: cores (2026-12-03), several times that on a shared machine.
TIMEOUT_S = 4 * 3600


def benches() -> list[str]:
    """The benches' names (``solver`` for ``bench/solver_bench.py``), in file order."""
    return sorted(p.name.removesuffix("_bench.py") for p in BENCH.glob("*_bench.py"))


def worker_class() -> str:
    """The worker ``gunicorn.conf.py`` names (``make run``'s and the benches' servers'), read
    from its text (the settings file is not run here)."""
    tree = ast.parse((ROOT / "gunicorn.conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "worker_class" for t in node.targets
        ):
            return ast.unparse(node.value).strip("'\"")
    return "sync"


def run_bench(name: str, quick: bool, verbose: bool) -> dict[str, Any]:
    """Run one bench; its results (``bench.common.report``'s JSON) with the time it took."""
    script = BENCH / f"{name}_bench.py"
    if "bench.common" not in script.read_text(encoding="utf-8"):
        raise SystemExit(
            f"{script.relative_to(ROOT)} does not report through bench.common (--rounds, "
            "--quick, --json; bench.common.report): every bench's figures go in the one table"
        )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.json"
        cmd = [sys.executable, str(script), "--json", str(out)]
        load_before = list(os.getloadavg())
        t0 = time.perf_counter()
        proc = subprocess.run(
            cmd + (["--quick"] if quick else []),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
        took = time.perf_counter() - t0
        if verbose or proc.returncode != 0:
            print(proc.stdout, end="")
            print(proc.stderr, end="", file=sys.stderr)
        if proc.returncode != 0:
            raise SystemExit(f"bench/{name}_bench.py failed ({proc.returncode})")
        data = json.loads(out.read_text())
    data["seconds"] = round(took, 1)
    data["load_before"] = load_before
    data["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    data["worker_class"] = worker_class()
    return data


def table(results: dict[str, Any]) -> list[str]:
    """The one table: a row per figure (key, value, range, target, pass)."""
    rows = [("figure", "value", "range", "target", "pass")]
    for bench in results["benches"].values():
        for f in bench["figures"]:
            unit = f" {f['unit']}" if f["unit"] else ""
            spread = f"{number(f['low'])} – {number(f['high'])}"
            rows.append(
                (
                    f["key"],
                    number(f["median"]) + unit,
                    spread,
                    target_text(f["target"], f["unit"]),
                    verdict(f["pass"]),
                )
            )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def readme_section(results: dict[str, Any]) -> str:
    """The README's generated section: how the figures were measured, then one table."""
    m = results["machine"]
    loads = [
        x for b in results["benches"].values() for x in (*b["load_before"], *b["load_average"])
    ]
    rounds = sorted({b["rounds"] for b in results["benches"].values()})
    dates = sorted({b.get("date", results["date"]) for b in results["benches"].values()})
    when = f"on {dates[0]}" if len(dates) == 1 else f"between {dates[0]} and {dates[-1]}"
    workers = sorted(
        {b.get("worker_class", m["worker_class"]) for b in results["benches"].values()}
    )
    lines = [
        README_BEGIN,
        "",
        f"Measured by `make bench` {when}: {m['cpus']} CPUs, Python {m['python']},"
        f" the gunicorn worker {' and '.join(f'`{w}`' for w in workers)}; load average"
        f" {min(loads):.1f}–"
        f"{max(loads):.1f} while it ran (other work shared the machine); each value the median"
        f" of {'/'.join(map(str, rounds))} interleaved rounds, with their range. Server CPU per"
        " request is the user + system time of the server's processes (HTTP workers, and the"
        " table's where a bench's server has one) from /proc around each load; a ratio"
        " to `/healthz` is /healthz's CPU over the endpoint's (1.0 = no dearer).",
        "",
        "| figure | value | range | target | pass | notes |",
        "|---|---|---|---|---|---|",
    ]
    for bench in results["benches"].values():
        for f in bench["figures"]:
            unit = f" {f['unit']}" if f["unit"] else ""
            lines.append(
                "| "
                + " | ".join(
                    _cell(c)
                    for c in (
                        f"`{f['key']}` {f['label']}",
                        number(f["median"]) + unit,
                        f"{number(f['low'])} – {number(f['high'])}",
                        target_text(f["target"], f["unit"]),
                        verdict(f["pass"]),
                        f["note"],
                    )
                )
                + " |"
            )
    lines += ["", README_END]
    return "\n".join(lines)


def write_readme(results: dict[str, Any]) -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN), text.index(README_END) + len(README_END)
    README.write_text(text[:start] + readme_section(results) + text[end:], encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a tiny run of every bench")
    ap.add_argument("--only", default="", help="comma-separated bench names")
    ap.add_argument("--verbose", action="store_true", help="print each bench's own output")
    ap.add_argument("--readme", action="store_true", help="only rewrite the README's figures")
    a = ap.parse_args()
    if a.readme:
        write_readme(json.loads(RESULTS.read_text()))
        return
    names = [n for n in a.only.split(",") if n] or benches()
    unknown = set(names) - set(benches())
    if unknown:
        raise SystemExit(f"no such bench: {', '.join(sorted(unknown))}; known: {benches()}")
    previous = json.loads(RESULTS.read_text()) if a.only and RESULTS.exists() else None
    if previous:
        for kept in previous["benches"].values():  # measured by an earlier run
            kept.setdefault("date", previous["date"])
            kept.setdefault("worker_class", previous["machine"]["worker_class"])
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "quick": a.quick,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "worker_class": worker_class(),
        },
        "benches": dict(previous["benches"]) if previous else {},
    }
    t0 = time.perf_counter()
    for name in names:
        data = run_bench(name, a.quick, a.verbose)
        results["benches"][name] = data
        failed = sum(f["pass"] is False for f in data["figures"])
        print(
            f"== bench/{name}_bench.py: {len(data['figures'])} figures, {failed} below target, "
            f"{data['seconds']:.0f} s, load average {data['load_before'][0]:.1f} -> "
            f"{data['load_average'][0]:.1f}",
            flush=True,
        )
    results["benches"] = {n: results["benches"][n] for n in benches() if n in results["benches"]}
    print(f"\nall figures ({time.perf_counter() - t0:.0f} s):")
    for line in table(results):
        print("  " + line)
    if a.quick:
        print("(a --quick run: bench/results.json and the README are left as they were)")
        return
    RESULTS.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    write_readme(results)
    print(f"wrote {RESULTS.relative_to(ROOT)} and the README's figures")


if __name__ == "__main__":
    main()
