"""The one engine shape every game follows, and the registry of game kinds.

A game kind is a ``GameKind`` subclass instance registered with ``register``. Engines are pure
Python (no Flask, no storage): the web layer and the simulator drive every game through this
interface only, so a game added later needs no new API code.

The contract (see ``../shared/design.md``, "One engine shape for every game"):

- ``new_state(seed, seats, options)`` builds the initial state. All randomness comes from a
  ``random.Random`` kept in the state and seeded from ``seed``; ``(seed, seats, options, action
  log)`` therefore replays the same game (``replay``).
- ``to_act(state)`` lists the seats that may act now (several at once where the rules say so).
- ``legal_actions(state, seat)`` lists small JSON objects, e.g. ``{"type": "take"}``.
- ``apply(state, seat, action)`` changes the state and returns a list of *public* events (JSON
  objects that every seat may see), or raises ``IllegalAction`` / ``InvalidInput`` with the
  reason and leaves the state exactly as it was. Engines validate before they mutate.
- ``view(state, seat)`` is exactly what ``seat`` may see (``seat=None``: a spectator, no private
  information). Once ``is_over`` every view shows everything. A view is a JSON object; the service
  adds the seat's legal actions next to it.
- ``is_over(state)``, ``scores(state)`` (a number per seat, or ``None`` while the game runs),
  ``winners(state)``.
- ``state_to_json`` / ``state_from_json`` snapshot a state (a cache; the action log is the truth).

Bots get only a seat's view (and that seat's legal actions), never the state: a bot cannot cheat
by construction. A bot is a callable ``(view, legal_actions, rng) -> action``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from errors import IllegalAction, InvalidInput

Action = dict[str, Any]
Event = dict[str, Any]
Bot = Callable[[dict, list[Action], random.Random], Action]


@dataclass(frozen=True)
class OptionSpec:
    """A rule option: name, default, description (English and Traditional Chinese), choices."""

    name: str
    default: Any
    description: str
    description_zh: str = ""
    choices: tuple[Any, ...] | None = None

    def validate(self, value: Any, field_path: str) -> Any:
        if self.choices is not None:
            # Same type and equal: ``True`` is not the choice ``1``, ``0`` is not ``False``/``None``.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise InvalidInput(
                    f"must be one of {', '.join(map(repr, self.choices))}, got {value!r}",
                    field_path,
                )
        elif isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InvalidInput(f"must be true or false, got {value!r}", field_path)
        elif isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"must be an integer, got {value!r}", field_path)
        elif isinstance(self.default, str) and not isinstance(value, str):
            raise InvalidInput(f"must be a string, got {value!r}", field_path)
        return value

    def to_json(self) -> dict:
        out = {"name": self.name, "default": self.default, "description": self.description}
        if self.description_zh:
            out["description_zh"] = self.description_zh
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out


@dataclass
class GameKind:
    """Metadata and behaviour of one game. Subclasses implement the methods below."""

    name: str = ""
    title: str = ""
    title_zh: str = ""
    min_seats: int = 2
    max_seats: int = 4
    options: tuple[OptionSpec, ...] = ()
    #: Bot levels offered for this game, name → bot callable.
    bots: dict[str, Bot] = field(default_factory=dict)

    # --- options -------------------------------------------------------------------------

    def resolve_options(self, given: dict | None, seats: int | None = None) -> dict:
        """Defaults filled in, every given option validated; unknown names refused."""
        given = {} if given is None else given
        if not isinstance(given, dict):
            raise InvalidInput("options must be an object", "options")
        specs = {o.name: o for o in self.options}
        for key in given:
            if key not in specs:
                known = ", ".join(specs) or "none"
                raise InvalidInput(f"unknown option {key!r} (known: {known})", f"options.{key}")
        return {
            name: spec.validate(given[name], f"options.{name}") if name in given else spec.default
            for name, spec in specs.items()
        }

    def check_seats(self, seats: int) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidInput("seat count must be an integer", "seats")
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidInput(
                f"{self.name} takes {self.min_seats}-{self.max_seats} seats, got {seats}", "seats"
            )

    def metadata(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "title_zh": self.title_zh,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "options": [o.to_json() for o in self.options],
            "bots": sorted(self.bots),
        }

    # --- the engine (override) -----------------------------------------------------------

    def new_state(self, seed: int, seats: int, options: dict | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def scores(self, state: Any) -> list[float] | None:
        raise NotImplementedError

    def winners(self, state: Any) -> list[int]:
        """Seats with the best score (ties share the win); empty while the game runs."""
        s = self.scores(state)
        if s is None:
            return []
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def state_to_json(self, state: Any) -> dict:
        raise NotImplementedError

    def state_from_json(self, data: dict) -> Any:
        raise NotImplementedError

    def seat_count(self, state: Any) -> int:
        raise NotImplementedError

    def statistics(self, state: Any) -> dict:
        """Game-specific figures of a (finished) game for ``games.simulate`` to average.

        Values are numbers (averaged over games) or lists with one number per seat (averaged per
        bot). Optional; default: none.
        """
        return {}

    # --- hidden information (declared for the generic hidden-information test) -------------

    def private_items(self, state: Any, seat: int) -> list[Any]:
        """What only ``seat`` may see now, each item exactly as it appears in ``view(state, seat)``.

        Items are JSON values (objects, lists or strings, not bare numbers), one per occurrence
        in the seat's view, e.g. its cards ``{"element": "fire", "value": 2}``.
        ``tests/test_hidden_information.py`` plays every registered kind through the API and
        counts whole JSON values: each item must be in ``seat``'s own view; the spectator's view
        may show it no more often than the rest of ``seat``'s view does, another seat's view no
        more often than the spectator's plus that seat's own equal items. Distinctive items (a card with its unique id) make the check
        strict; repeated faces (two fire-2s) are handled by the counting. Once the game is over,
        what is still listed must be in every view. Default: nothing private.
        """
        return []

    def hidden_items(self, state: Any) -> list[Any]:
        """What no seat may see now (e.g. the order of the deck), as *distinctive* JSON values:
        the test requires that none of them appears in any view or legal-action list before the
        end. Default: nothing hidden.
        """
        return []

    # --- generic helpers built on the engine ----------------------------------------------

    def check_turn(self, state: Any, seat: int) -> None:
        """Refuse an action from a seat that may not act now (the common first check)."""
        if self.is_over(state):
            raise IllegalAction("the game is over", "action")
        if seat not in self.to_act(state):
            raise IllegalAction(f"it is not seat {seat}'s turn", "seat")

    def bot_action(self, state: Any, seat: int, level: str, rng: random.Random) -> Action:
        """Ask bot ``level`` for ``seat``'s action; the bot sees only that seat's view."""
        bot = self.bots.get(level)
        if bot is None:
            raise InvalidInput(f"unknown bot level {level!r} for {self.name}", "level")
        return bot(self.view(state, seat), self.legal_actions(state, seat), rng)

    def copy_state(self, state: Any) -> Any:
        return copy.deepcopy(state)


_REGISTRY: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Add a game kind to the registry (by ``kind.name``)."""
    _REGISTRY[kind.name] = kind
    return kind


def get_kind(name: Any) -> GameKind:
    """The registered game kind called ``name``; an ``InvalidInput`` naming the known ones."""
    _load_builtin()
    if not isinstance(name, str) or name not in _REGISTRY:
        raise InvalidInput(f"unknown game {name!r} (known: {', '.join(sorted(_REGISTRY))})", "game")
    return _REGISTRY[name]


def kinds() -> dict[str, GameKind]:
    """Every registered game kind, by name."""
    _load_builtin()
    return dict(_REGISTRY)


_BUILTIN_LOADED = False


def _load_builtin() -> None:
    """Import the built-in game modules (each registers itself) once per process.

    Only the first call imports: a failed import of a game not built yet costs ~0.2 ms, and
    ``get_kind`` runs several times per API request.
    """
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    import importlib

    for module in ("games.tobago", "games.dao", "games.isla_dorada", "games.dragons_gold"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:  # a game not built yet
            if e.name != module:
                raise
    _BUILTIN_LOADED = True


def replay(
    kind: GameKind,
    seed: int,
    seats: int,
    options: dict | None,
    actions: Iterable[tuple[int, Action]],
) -> Any:
    """Rebuild a state from ``(seed, seats, options)`` and an action log of ``(seat, action)``."""
    state = kind.new_state(seed, seats, options)
    for seat, action in actions:
        kind.apply(state, seat, action)
    return state


def play_bots(
    kind: GameKind,
    state: Any,
    levels: list[str],
    rng: random.Random,
    max_actions: int = 100_000,
    on_action: Callable[[int, Action, list[Event]], None] | None = None,
) -> int:
    """Let bots (one level per seat) act until the game ends; returns the number of actions."""
    n = 0
    while not kind.is_over(state):
        seat = kind.to_act(state)[0]
        action = kind.bot_action(state, seat, levels[seat], rng)
        events = kind.apply(state, seat, action)
        if on_action is not None:
            on_action(seat, action, events)
        n += 1
        if n >= max_actions:
            raise RuntimeError(f"{kind.name}: no end after {max_actions} actions")
    return n
