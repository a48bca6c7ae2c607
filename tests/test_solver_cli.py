"""``python -m solver solve FILE.json [--json]``: readable text, the API's JSON, clear errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solver.__main__ import build_parser, main
from solver.answer import answer_json
from solver.solve import parse_solve_request
from tests.islands import small_island_json, small_white_map

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def request_file(tmp_path):
    body = {
        "island": small_island_json(),
        "maps": [
            small_white_map(),
            {"id": "grey", "clues": []},
        ],
        "hand": ["in:beach", "near1:hut"],
        "options": {"treasure_on_landmarks": False},
    }
    path = tmp_path / "req.json"
    path.write_text(json.dumps(body))
    return path, body


def test_json_output_is_the_api_response(request_file, capsys):
    path, body = request_file
    assert main(["solve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == answer_json(parse_solve_request(body))


def test_text_output_lists_candidates_steps_exclusions_and_plays(request_file, capsys):
    path, _ = request_file
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Island (given in full): 19 spaces, 4 landmarks" in out
    assert "treasure_on_landmarks=false" in out
    # white: the 4 landmark spaces are out first; the removed (2,0) is a landmark already
    assert "Map white: 5 candidates: (-1,1) (0,1) (0,2) (1,-1) (2,-1)" in out
    assert "  15 spaces may hold the treasure" in out
    assert "  clue 1 (Not in the jungle) leaves 10 spaces" in out
    assert "  clue 2 (Within 1 space of a lake) leaves 5 spaces" in out
    assert "  amulet removals leave 5 spaces" in out
    assert "excluded by landmark (no treasure there): (-2,1) (-1,-1) (0,-1) (2,0)" in out
    assert "excluded by clue 0 (near2:sea): (0,0)" in out
    assert "Map grey: 15 candidates" in out
    assert "0. in:beach — On the beach: white legal (1 left), grey legal (2 left)" in out
    assert (
        "1. near1:hut — Within 1 space of a hut: white legal (2 left), grey legal (7 left)" in out
    )


def test_chinese_text(request_file, capsys):
    path, _ = request_file
    assert main(["solve", str(path), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "在沙灘中" in out
    # every line in Chinese: no English words once clue notations are taken out
    words = re.sub(r"!?(?:in|near[12]):(?:largest:)?[a-z]+", "", out)
    assert not re.findall(r"[A-Za-z]{2,}", words), re.findall(r"[A-Za-z]{2,}", words)
    assert "白色藏寶圖：5 個候選格" in out and "被線索 0（near2:sea）排除" in out


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("{not json", "file"),
        ('{"island": {"name": "atlantis"}, "maps": []}', "island.name"),
        (
            '{"island": {"name": "classic-1"}, "maps": [{"id": "w", "clues": ["in:sea"]}]}',
            "maps[0].clues[0]",
        ),
        ("[]", "body"),
    ],
)
def test_bad_input_exits_2_naming_the_field(tmp_path, capsys, content, field):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["solve", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {field}: ")


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_subcommands_are_discovered_from_cli_modules():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert {"solve", "puzzles"} <= set(sub.choices)


def test_python_dash_m_solver_solve_reads_stdin(request_file):
    _, body = request_file
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "solve", "-", "--json"],
        input=json.dumps(body),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["maps"][0]["count"] == 5
