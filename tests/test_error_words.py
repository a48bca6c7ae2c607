"""Every error a player can meet is a sentence in their language.

Engines and the session layer give each refusal a players can reach a stable ``reason`` and the
``params`` it names (the card, the map, the space, counts); the catalogues word each reason as
``error.<reason>`` in English and Chinese, and pages fill in the params as they name those
things (``static/common/errors.js``). These tests hold the whole chain: every raise site carries
a reason, every reason has a sentence in both languages, and the API answers with both.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from errors import IllegalAction
from games.base import get_kind
from i18n import catalogue, translate
from solver.clues import describe_clue, parse_clue
from tests.tobago_positions import card, give, position, put_clue

ROOT = Path(__file__).resolve().parents[1]
KIND = get_kind("tobago")
ERRORS = {
    "IllegalAction",
    "InvalidInput",
    "NotFound",
    "Forbidden",
    "Unauthorized",
    "TooManyRequests",
}

#: Where a player's action or seat can be refused: whole files, or these functions of a file.
PLAYER_REACHABLE = {
    "games/tobago/turn.py": None,
    "games/tobago/engine.py": None,
    "games/tobago/sharing.py": None,
    "games/tobago/state.py": {"offered", "sharing_now", "first_clue_card", "atv"},
    "games/isla_dorada/auction.py": None,
    "games/isla_dorada/drawing.py": None,
    "games/isla_dorada/engine.py": None,
    "games/isla_dorada/phases.py": None,
    "games/isla_dorada/rounds.py": None,
    "games/dragons_gold/fight.py": None,
    "games/dragons_gold/market.py": None,
    "games/dragons_gold/settle.py": None,
    "games/base.py": {"apply", "_seat_work", "_move", "check_seat"},
    "games/turns.py": {"check_limit", "table_work", "back_work", "check_clock_options"},
    "web/service/replay.py": {"rules_changed"},
    "web/service/sessions.py": {"act", "record", "import_record"},
    "web/service/imports.py": None,
    "web/service/lobby.py": None,
    "web/service/seats.py": {"bearer_token", "seat_of", "claim"},
    "web/schemas_games.py": {"plain_name"},
    "web/schemas_chat.py": {"chat_text"},
    "web/service/chat.py": None,
    "web/accounts/names.py": None,
    "web/accounts/passwords.py": {"check_new"},
    "web/accounts/credentials.py": None,
    "web/accounts/limits.py": None,
    "web/accounts/service.py": None,
    "web/accounts_api.py": None,
    "web/accounts/mail.py": None,
    "web/turn_mail.py": None,
}


def _raises(path: str, functions: set[str] | None):
    """(line, reason or None) of every domain error raised in ``path`` (in ``functions``)."""
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if functions is not None and fn.name not in functions:
            continue
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = getattr(node.exc.func, "id", None)
            if name not in ERRORS:
                continue
            reason = next((k.value for k in node.exc.keywords if k.arg == "reason"), None)
            yield node.lineno, reason


def test_every_refusal_a_player_can_meet_has_a_stable_reason_worded_in_both_languages():
    seen: set[str] = set()
    for path, functions in PLAYER_REACHABLE.items():
        for line, reason in _raises(path, functions):
            assert reason is not None, f"{path}:{line} raises without reason="
            if isinstance(reason, ast.Constant):
                seen.add(reason.value)
            else:  # a reason chosen at run time: every string constant in that expression
                seen |= {
                    n.value
                    for n in ast.walk(reason)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                }
    # reasons picked by helper functions (play_refusal, _can_play) are string literals there
    src = (ROOT / "games/tobago/turn.py").read_text("utf-8")
    seen |= set(re.findall(r'return "([a-z_]+)", "', src))
    seen |= set(re.findall(r'^\s+"([a-z_]+)",\n\s+"', src, re.M))
    assert len(seen) > 35
    for lang in ("en", "zh"):
        missing = {r for r in seen if f"error.{r}" not in catalogue(lang)}
        assert not missing, (lang, missing)


def _declared_reasons() -> set[str]:
    """The reasons the declared action types refuse with (``games.actions``): the fields' own
    (``OneOf``, ``Named``, ``Parsed`` parsers'), the shared ones, and each ``refuse``."""
    from pydantic import BaseModel

    from games.actions import Named, OneOf
    from games.base import kinds

    found = {"unknown_field", "missing_field", "not_an_integer", "malformed_action"}
    models: list[type[BaseModel]] = [
        m for k in kinds().values() for ms in k.action_types.values() for m in ms
    ]
    while models:
        model = models.pop()
        for info in model.model_fields.values():
            found |= {m.reason for m in info.metadata if isinstance(m, OneOf | Named)}
            for arg in getattr(info.annotation, "__args__", ()) or ():
                found |= {
                    m.reason
                    for m in getattr(arg, "__metadata__", ())
                    if isinstance(m, OneOf | Named)
                }
                if isinstance(arg, type) and issubclass(arg, BaseModel):
                    models.append(arg)
            if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
                models.append(info.annotation)
    for path in (ROOT / "games").glob("**/*.py"):
        found |= set(re.findall(r'refuse\(\s*"([a-z_0-9]+)"', path.read_text("utf-8")))
    return found


def test_every_reason_a_declared_action_refuses_with_is_worded_in_both_languages():
    reasons = _declared_reasons()
    assert {"unknown_map", "isla_no_such_card", "dg_no_such_hunter", "isla_card_twice"} <= reasons
    for lang in ("en", "zh"):
        missing = {r for r in reasons if f"error.{r}" not in catalogue(lang)}
        assert not missing, (lang, missing)


def test_every_reason_the_code_gives_is_worded_in_both_languages():
    """Not only the player-reachable ones: any reason an API client can meet has a sentence."""
    found: dict[str, str] = {}
    for path in ROOT.glob("**/*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith((".venv/", "tests/")):
            continue
        for reason in re.findall(r'reason="([a-z_0-9]+)"', path.read_text("utf-8")):
            found.setdefault(reason, rel)
    assert len(found) > 100
    for lang in ("en", "zh"):
        missing = {r: f for r, f in found.items() if f"error.{r}" not in catalogue(lang)}
        assert not missing, (lang, missing)


def test_the_categories_and_a_generic_sentence_are_worded_too():
    for lang in ("en", "zh"):
        for code in (
            "invalid",
            "illegal",
            "not_found",
            "unauthorized",
            "forbidden",
            "stale_version",
            "too_large",
            "busy",
            "network",
            "generic",
        ):
            assert f"error.{code}" in catalogue(lang), (lang, code)


def test_a_clue_refusal_names_the_card_and_the_map():
    s = position(atvs=[(0, 0), (5, 4)])
    put_clue(s, "white", "in:jungle", 1)
    give(s, 0, ["near1:palm", "!in:beach", "in:lake", "!near1:hut"])
    cases = {"in:lake": "removes_every_candidate", "!in:beach": "removes_no_candidate"}
    for notation, reason in cases.items():
        with pytest.raises(IllegalAction) as info:
            KIND.apply(s, 0, {"type": "play_clue", "card": card(notation), "map": "white"})
        err = info.value
        assert err.reason == reason
        assert err.params["clue"] == notation and err.params["map"] == "white"
        zh = translate(
            "zh",
            f"error.{reason}",
            clue=describe_clue(parse_clue(notation), "zh"),
            map=translate("zh", "map.white"),
        )
        assert "白色" in zh and describe_clue(parse_clue(notation), "zh") in zh
        assert not re.search(r"[A-Za-z]", zh), zh


def test_the_api_answers_a_refusal_with_its_reason_and_params(client):
    resp = client.post(
        "/api/games", json={"game": "tobago", "seats": [{"type": "human"}, {"type": "human"}]}
    )
    body = resp.get_json()
    game, token = body["id"], body["seats"][1]["token"]
    resp = client.post(
        f"/api/games/{game}/actions",
        json={"version": 0, "action": {"type": "place_atv", "at": [0, 0]}},
        headers={"Authorization": f"Bearer {token}"},
    )
    err = resp.get_json()["error"]
    assert resp.status_code == 409 and err["reason"] == "not_your_turn"
    assert err["params"]["seat"] == 1
    assert translate("zh", f"error.{err['reason']}") == "還沒輪到你。"
