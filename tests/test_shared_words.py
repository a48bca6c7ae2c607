"""The words every game's pages share (``i18n/<lang>/page.json``, ``page.*``) and the rule that
reads them: a key ``<ns>.<name>`` no file defines is the shared ``page.<name>`` (``i18n.lookup``,
``translate``, the page scripts' ``t``), so a game words only what it says differently, and a
copy of a shared word in a game's file is an error, not a habit. Plus the catalogues' extra
folders (``i18n.add_folder``): a game living outside the project's tree brings its words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import i18n
from i18n import SHARED, defined, has, lookup, shared_key, translate
from web.game_site import sites
from web.i18n import script_data

ROOT = Path(__file__).resolve().parents[1]


def _page_prefixes() -> set[str]:
    """The string prefixes of every registered game's pages (new-game, game and join pages),
    and the generic pages' ``play.``."""
    found = {"play."}
    for site in sites():
        found |= {p.strings for p in (site.new_page, site.game_page) if p is not None}
    return found


def test_the_shared_words_are_in_both_languages():
    en = {k for k in defined("en") if k.startswith(SHARED)}
    zh = {k for k in defined("zh") if k.startswith(SHARED)}
    assert len(en) > 40 and en == zh
    for key in en:  # the same placeholders in both
        pair = [lookup(lang, key) for lang in ("en", "zh")]
        other = [p["other"] if isinstance(p, dict) else p for p in pair]
        assert len({frozenset(re.findall(r"\{(\w+)\}", o)) for o in other}) == 1, key


def test_no_game_copies_a_shared_word():
    """A key of a game's pages that says exactly what the shared word says (in both languages)
    is a copy: delete it, the shared word stands in."""
    en, zh = defined("en"), defined("zh")
    prefixes = tuple(_page_prefixes())
    assert {"dao.", "isla.", "dg.", "game.", "new.", "play."} <= set(prefixes)
    copies = sorted(
        key
        for key in en
        if key.startswith(prefixes)
        and (shared := shared_key(key)) in en
        and (en[key], zh.get(key)) == (en[shared], zh[shared])
    )
    assert not copies


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_game_key_falls_back_to_the_shared_word_and_overrides_it(lang):
    assert shared_key("dg.speed_fast") == "page.speed_fast"
    assert shared_key("page.speed_fast") is None and shared_key("nodots") is None
    for prefix in _page_prefixes():
        key = prefix + "speed_fast"
        assert key not in defined(lang) and has(lang, key)
        assert translate(lang, key) == translate(lang, "page.speed_fast")
    # an override: Isla Dorada's invitation names the expedition
    own = translate(lang, "isla.join_invite_by", host="Ann", n=2)
    assert own != translate(lang, "page.join_invite_by", host="Ann", n=2) and "Ann" in own
    assert (
        not has(lang, "dg.no_such_word") and translate(lang, "dg.no_such_word") == "dg.no_such_word"
    )


def test_a_pages_script_strings_carry_the_shared_words():
    data = script_data("zh", ("dg.",), clues=False)
    assert data["strings"]["page.speed_fast"] == lookup("zh", "page.speed_fast")
    assert "dg.speed_fast" not in data["strings"]  # the script's t() reads the shared one


def test_the_page_scripts_read_shared_words_by_the_same_rule():
    """``static/common/i18n.js``'s ``t`` and ``has`` fall back as ``i18n.shared_key`` does."""
    script = (ROOT / "static/common/i18n.js").read_text("utf-8")
    assert "data.strings[key] ?? data.strings[sharedKey(key)]" in script
    assert re.search(
        r"function sharedKey\(key\).*?`page\.\$\{key\.slice\(dot \+ 1\)\}`", script, re.S
    )
    assert 'key.startsWith("page.")' in script and SHARED == "page."


def test_a_folder_of_words_added_and_removed(tmp_path):
    for lang, word in (("en", "Pile"), ("zh", "牌堆")):
        (tmp_path / lang).mkdir()
        words = {"extra.pile": word, "extra.speed_fast": word + "!"}
        (tmp_path / lang / "extra.json").write_text(json.dumps(words), "utf-8")
    before = i18n.version()
    i18n.add_folder(tmp_path)
    try:
        assert i18n.version() != before
        assert (
            translate("zh", "extra.pile") == "牌堆"
            and translate("en", "extra.speed_fast") == "Pile!"
        )
        assert translate("en", "extra.speed") == translate("en", "page.speed")  # shared
    finally:
        i18n.remove_folder(tmp_path)
    assert not has("en", "extra.pile") and has("en", "page.speed")


def test_a_folder_that_defines_a_key_again_is_refused(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "clash.json").write_text(json.dumps({"page.speed": "again"}), "utf-8")
    i18n.add_folder(tmp_path)
    try:
        with pytest.raises(ValueError, match="page.speed"):
            i18n.catalogue("en")
    finally:
        i18n.remove_folder(tmp_path)
    assert translate("en", "page.speed") != "again"
