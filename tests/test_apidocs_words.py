"""The API reference in the reader's language (issue 43, item 11): every operation's summary and
its parameters' and responses' descriptions in ``/openapi.json`` (which stays English) have
their words in both catalogues (``apidocs.doc.*``: the English exactly as the document says it,
so a changed description fails here until both languages follow), and the Chinese page shows
every one of them in Chinese, no operation's text left as its English."""

from __future__ import annotations

import re

import pytest

from app import create_app
from i18n import catalogue
from tests.browser_support import OUT, axe_violations, new_page
from web.docs import DOC_PREFIX, doc_words

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def document() -> dict:
    app = create_app({"TESTING": True})
    return app.test_client().get("/openapi.json").get_json()


def _texts(op: dict) -> list[str]:
    """An operation's texts a reader sees on the page: summary, description, the parameters'
    and the responses' descriptions."""
    out = [op.get("summary", ""), op.get("description", "")]
    out += [p.get("description", "") for p in op.get("parameters", [])]
    out += [r.get("description", "") for r in op.get("responses", {}).values()]
    return [t for t in out if t]


def _all_texts(document: dict) -> set[str]:
    return {t for ops in document["paths"].values() for op in ops.values() for t in _texts(op)}


def test_every_text_of_the_document_is_in_both_catalogues_and_nothing_else(document):
    english = {v for k, v in catalogue("en").items() if k.startswith(DOC_PREFIX)}
    texts = _all_texts(document)
    assert len(texts) > 100
    assert texts - english == set(), "a text of the document without words (i18n/*/apidocs.json)"
    assert english - texts == set(), "words for a text the document no longer has"


def test_the_chinese_words_of_every_text_are_chinese(document):
    words = doc_words("zh")
    for text in _all_texts(document):
        assert words[text] != text and CJK.search(words[text]), text
    assert doc_words("en") == {}


def test_the_document_itself_stays_english(document):
    app = create_app({"TESTING": True})
    zh = app.test_client().get("/openapi.json?lang=zh").get_json()
    assert zh == document


#: Each operation on the page: its summary, its parameters' and its responses' descriptions.
SHOWN = """() => [...document.querySelectorAll('details.op')].map((d) => ({
  id: d.id,
  summary: d.querySelector('summary .summary').textContent,
  params: [...d.querySelectorAll('.op-body table tr')].slice(1).map((tr) => tr.lastElementChild.textContent),
  responses: Object.fromEntries([...d.querySelectorAll('.op-body > div > strong')].map(
    (s) => [s.textContent, s.parentElement.childNodes[2].textContent])),
}))"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_operation_of_the_reference_is_in_the_pages_language(
    browser, live_server, document, lang
):
    page = new_page(browser)
    page.goto(f"{live_server}/api/docs?lang={lang}")
    page.wait_for_selector("details.op")
    shown = {op["id"]: op for op in page.evaluate(SHOWN)}
    ops = {op["operationId"]: op for ops in document["paths"].values() for op in ops.values()}
    assert set(shown) == set(ops)
    for op_id, op in ops.items():
        english = {
            "summary": op["summary"],
            "params": [p.get("description", "") for p in op.get("parameters", [])],
            "responses": {k: r.get("description", "") for k, r in op["responses"].items()},
        }
        seen = shown[op_id]
        if lang == "en":
            assert seen["summary"] == english["summary"], op_id
            assert seen["responses"] == english["responses"], op_id
            continue
        assert seen["summary"] != english["summary"] and CJK.search(seen["summary"]), op_id
        for got, was in zip(seen["params"], english["params"], strict=True):
            assert not was or (got != was and CJK.search(got)), (op_id, was)
        assert set(seen["responses"]) == set(english["responses"]), op_id
        for status, was in english["responses"].items():
            got = seen["responses"][status]
            assert got != was and CJK.search(got), (op_id, status, was)
    page.locator("details.op").first.evaluate("(d) => { d.open = true; }")
    page.screenshot(path=str(OUT / f"apidocs-{lang}.png"))
    assert axe_violations(page) == []
    assert not page.js_errors, page.js_errors
