"""``python -m solver puzzles``: the sheet it writes and the codes it lists."""

from __future__ import annotations

import argparse

from solver.puzzles.cli import add_subcommand, main
from solver.puzzles.codes import puzzle_from_code


def test_writes_the_same_sheet_as_the_web_page(tmp_path, client):
    out = tmp_path / "sheet.html"
    assert main(["--count", "3", "--difficulty", "hard", "--seed", "9", "--out", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert html.count('class="sheet-puzzle"') == 3 and html.count('class="key-item"') == 3
    web = client.get("/puzzles/sheet?count=3&difficulty=hard&seed=9&print=1").get_data(as_text=True)
    assert web == html


def test_lists_codes_that_rebuild_puzzles_of_that_difficulty(capsys):
    assert main(["--count", "3", "--difficulty", "easy", "--answers"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    for line in lines:
        seed, code, level, *_rest, answer = line.split("\t")
        p = puzzle_from_code(code)
        assert level == p.difficulty == "easy"
        assert answer == f"({p.answer.q}, {p.answer.r})"


def test_refuses_a_bad_count(capsys):
    assert main(["--count", "0"]) == 2
    assert "count" in capsys.readouterr().err


def test_registers_as_a_subcommand():
    parser = argparse.ArgumentParser(prog="solver")
    sub = parser.add_subparsers(dest="command")
    add_subcommand(sub)
    args = parser.parse_args(
        ["puzzles", "--count", "20", "--difficulty", "hard", "--out", "x.html"]
    )
    assert (args.command, args.count, args.difficulty, args.out) == (
        "puzzles",
        20,
        "hard",
        "x.html",
    )
    assert callable(args.func)


def test_a_long_list_shows_a_progress_bar_on_a_terminal_stderr_only(monkeypatch, capsys):
    import io
    import sys

    import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(progress, "DELAY", 0.0)  # as if the run had lasted over a second
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["--count", "41", "--difficulty", "easy"]) == 0  # a list may be longer than a sheet
    assert "41/41" in err.getvalue() and "puzzles" in err.getvalue()
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 41 and "%" not in out
    err.truncate(0)
    assert main(["--count", "2", "--quiet"]) == 0
    assert err.getvalue().strip("\x00") == ""


def test_counts_are_worded_with_their_plural():
    from i18n import translate

    assert translate("en", "cli.n_points", count=1) == "1 point"
    assert translate("en", "cli.n_clues", count=3) == "3 clues"
