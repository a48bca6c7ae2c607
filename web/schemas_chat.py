"""Pydantic models of the table chat's requests and answers (``web.chat_api``), and what a line
may say (``chat_text``): one line of at most ``MAX_CHARS`` characters, none of them a control
character, a line break or a character a reader cannot see.

A refusal names its reason (``chat_too_long``, ``chat_control_character``,
``chat_hidden_character``, ``chat_empty``) and what it counts, so pages word it in the reader's
language (``error.<reason>`` in ``i18n/<lang>/errors.json``); the description's ``maxLength``
and ``pattern`` say the same rules to API clients (the pattern is only described: the
validator below gives the reasons).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from errors import InvalidInput
from web.apidoc import StrictIn
from web.text_rules import character_class, code_point, line_pattern, unfit_character

#: The longest line, in characters (Unicode code points, as JSON Schema counts them).
MAX_CHARS = 500
#: The classes of ``web.text_rules`` refused as ``chat_control_character``: what breaks a line
#: or controls a terminal (the others are ``chat_hidden_character``).
LINE_BREAKING = frozenset(("control", "line separator", "paragraph separator"))


def chat_text(value: str) -> str:
    """A chat line as it is stored: ``value`` without the spaces around it; refused (400, the
    reason named) when it is longer than ``MAX_CHARS``, holds a control character or a line
    break (``chat_control_character``), or another character unfit to show
    (``web.text_rules``, the rule of names: ``chat_hidden_character``), or nothing but spaces."""
    if len(value) > MAX_CHARS:
        raise InvalidInput(
            f"a chat line holds at most {MAX_CHARS} characters, not {len(value)}",
            reason="chat_too_long",
            params={"limit": MAX_CHARS, "length": len(value)},
        )
    found = unfit_character(value)
    if found is not None and character_class(found) in LINE_BREAKING:
        raise InvalidInput(
            f"a chat line is one line of text: no control characters or line breaks "
            f"({code_point(found)})",
            reason="chat_control_character",
            params={"character": code_point(found)},
        )
    if found is not None:
        raise InvalidInput(
            f"a chat line may not hold invisible, format or blank characters "
            f"({code_point(found)}, {character_class(found)})",
            reason="chat_hidden_character",
            params={"character": code_point(found)},
        )
    text = value.strip()
    if not text:
        raise InvalidInput("a chat line says something: it is empty", reason="chat_empty")
    return text


#: A line's text: checked and trimmed by ``chat_text`` (the length and pattern only described).
LineText = Annotated[str, AfterValidator(chat_text)]


class ChatIn(StrictIn):
    text: LineText = Field(
        description=f"One line: at most {MAX_CHARS} characters, no control characters or line "
        "breaks, none a reader cannot see, not only spaces (kept without the spaces around it)",
        json_schema_extra=lambda schema: schema.update(
            minLength=1, maxLength=MAX_CHARS, pattern=line_pattern()
        ),
    )


class ChatLineOut(BaseModel):
    n: int = Field(description="The line's number in the game's chat (1, 2, ...)")
    seat: int = Field(description="The seat that wrote it (the game's seats name it)")
    text: str = Field(description="What it says (plain text, never markup)")
    time: float = Field(description="When it was written (Unix time, the server's clock)")


class ChatOut(BaseModel):
    id: str
    count: int = Field(description="The lines of the game's chat so far")
    over: bool = Field(description="The game is over: its chat is closed, and stays readable")
    more: bool = Field(description="More lines follow the last one returned (a page is full)")
    lines: list[ChatLineOut] = Field(description="The lines after `after`, oldest first")
