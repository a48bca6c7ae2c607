"""The pages' words in Traditional Chinese are Chinese: no English word is left in a Chinese
catalogue value (a card kind, a column, a bot's level), except the few names that are the same
in both (the site's API, JSON, DAO, the English language's own name, keys), the options' API
values quoted in their descriptions, and on the API reference page the API's own literal names
(its error fields, its header, its formats)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAME_IN_BOTH = {"API", "JSON", "DAO", "English", "NUL", "Page", "Up", "Down", "Enter", "Tab"}
API_NAMES = {"code", "reason", "params", "Authorization", "OpenAPI", "MiB", "JavaScript"}
#: ... and in the operations' descriptions (``apidocs.doc.*``) the protocol's names; a field,
#: header or reason code is quoted there in backticks, as the API spells it.
API_NAMES |= {"cookie", "CSRF", "HTML", "HTTP", "SVG", "GET", "POST"}
AREAS = sorted(p.stem for p in (ROOT / "i18n/zh").glob("*.json"))


@pytest.mark.parametrize("area", AREAS)
def test_chinese_catalogues_keep_no_english_words(area):
    values = json.loads((ROOT / "i18n/zh" / f"{area}.json").read_text("utf-8"))
    left = {}
    for key, value in values.items():
        if re.match(r"games\.(\w+\.)?options\.", key):  # they quote the API's option values
            continue
        for text in value.values() if isinstance(value, dict) else [value]:
            prose = re.sub(r"\{\w+\}|/[\w./-]+|\b\dxx\b", "", text)  # placeholders, paths, 4xx
            words = set(re.findall(r"[A-Za-z]{2,}", prose)) - SAME_IN_BOTH
            if area == "apidocs":
                quoted = set(re.findall(r"[A-Za-z]{2,}", " ".join(re.findall(r"`[^`]*`", text))))
                words -= API_NAMES | quoted
            if words:
                left[key] = sorted(words)
    assert not left
