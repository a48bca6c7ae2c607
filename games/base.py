"""The one engine shape every game follows, and the registry of game kinds.

A game is a ``GameKind`` over its state type (a dataclass extending ``games.state.GameState``):
it passes its static facts (a ``GameType``: name, seats, options, chance, information, turn
structure, time), its declared phases (``games.phases.Phase``: who acts, the legal actions,
the action types each accepts and how each applies, the phase's timer) and its bots to
``GameKind.__init__``, and implements the few hooks below. Engines are pure Python (no Flask,
no storage, no clock): the web layer and the simulator drive every game through this interface
only, so a game added later needs no new API code. The shape follows ``../shared/design.md``
("One engine shape for every game"), boardgame.io's phases and OpenSpiel's split of static game
facts, state and observation.

The public interface (what callers use; the base does what every game does the same way):

- ``new_state(seed, seats, options)``: the seed, the seat count and the options are checked
  here; the base builds the game's one generator, ``random.Random(seed)``, and the engine's
  ``setup(seed, seats, resolved_options, rng)`` deals with it and keeps it in the state for
  every later chance event (``games.state``), so ``(seed, seats, options, action log)`` replays
  the same game (``replay``).
- ``to_act(state)``: the seats that may act now (several at once where the rules say so), from
  the running phase (a function, or its declared turn order: ``games.order``; the state holds
  the turn, ``current`` and ``order``).
- ``legal_actions(state, seat)``: small JSON objects such as ``{"type": "take"}``; empty for a
  seat that may not act; only the types the phase's running stage takes (``games.phases``).
- ``apply(state, seat, action)``: the base refuses a malformed action, a finished game, an
  unknown seat, a seat that may not act, an action type the game does not know or the phase
  does not take, and an action that does not match its declared type (reasons
  ``malformed_action``, ``game_over``, ``no_such_seat``, ``not_your_turn``, ``unknown_action``,
  ``action_not_now``, ``unknown_field``, ``missing_field``, ``not_an_integer``, or the game's
  own reason for a value it names: ``games.actions``); then it counts the move and the phase's
  function applies the checked action and returns *public* events, or raises
  ``errors.IllegalAction`` / ``errors.InvalidInput`` with the reason and leaves the state
  exactly as it was (engines validate before they mutate). A seat's ``{"type": "back"}`` (it
  was marked absent, ``games.turns``; else ``not_absent``) is taken at any time.
- ``view(state, seat)``: exactly what ``seat`` may see (``None``: a spectator, no private
  information), from the engine's ``observe`` and the running phase's piece (``Phase.view``);
  ``phase_hook(name, hook)``: a phase's ``view``, ``bot`` or ``analysis`` hook, for code that
  reads a view and would otherwise branch on the phase's name (``bot_hook(name, bot)``: the
  phase's piece of one bot). Once ``is_over``, every view shows everything.
- ``is_over(state)`` (the phase ``over``), ``scores(state)`` (a number per seat, ``None`` while
  the game runs), ``winners(state)``, ``seat_count(state)``.
- ``timer(state)``: ``None``, or the ``Timer`` of a phase that ends by the clock (below).
- ``state_to_json`` / ``state_from_json``: a snapshot of a state (a cache; the log is the
  truth): the base's part (``games.state.common_json``), the engine's (``encode``/``decode``)
  and their formats (``[games.state.COMMON_FORMAT, kind.snapshot_format]``); a snapshot of
  another format is refused (``InvalidInput``), so a service holding an old one replays the log
  instead.

**Time is data.** Engines never read a clock. A phase with a time limit declares a
``PhaseTimer``; the base makes ``timer(state)`` return ``Timer(since, seconds, action)``: the
phase began after the ``since``-th action of the log (that entry's time starts its clock) and
lasts ``seconds``; when it runs out, *the table* acts: the service applies ``action`` with seat
``None`` (``SYSTEM``) as an entry of the action log. ``apply(state, None, action)`` accepts
exactly the current timer's action, so a log with timeouts replays with no clock at all, and an
imported record replays its timeouts too. The base composes the timer: the running phase's, or
else the seats' clocks every kind takes (a time per move, ``turn_seconds``, or a bank per seat,
``time_bank_s`` with ``increment_s``; ``games.turns``): ``turn_clocks`` says whose run and since
when, and the service, which knows how long each lasts, names the late seat to
``timeout_action``: the move of the kind's gentlest bot for it. The base marks a seat the
table played for three times in a row absent (its clock is then 0 s) until it is back
(``{"type": "back"}``, or its own move), limits moves per phase and ends a game whose log is
full (``games.turns``, the engine's ``finish``).

**Bot levels.** A game offers its bots as levels, weakest first (the first is a bot seat's
default): the built-in games name them alike, ``LEVELS`` = ``easy``, ``normal``, ``strong`` (a
game may offer fewer until it has a bot for each). Older names stay accepted as ``aliases`` of
the level they became, resolved to the same bot, so a stored game whose seat names one replays
with the same moves. ``metadata`` lists the levels with a sentence each on how it plays
(``games.<kind>.levels.<level>`` in both catalogues) and their aliases.

Bots (their shape, ``legal_only``) and games played by bots (``play_bots``, ``next_bot_action``,
``replay``) are ``games.autoplay``'s, importable from here too; it and ``games.turns`` are typed
against ``games.playing.Playable``, so none of them imports this module back.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic.json_schema import models_json_schema

from errors import IllegalAction, InvalidInput
from games import facts, turns
from games.actions import SYSTEM, Action, ActionType, check_shape, parse
from games.autoplay import Bot, legal_only, next_bot_action, play_bots, replay
from games.gametype import GameType, OptionSpec
from games.phases import Event, Phase, begin_entered, run
from games.playing import Timer
from games.state import (
    COMMON_FORMAT,
    COMMON_KEYS,
    OVER,
    GameState,
    common_from_json,
    common_json,
    generator,
)
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking
from hexmap.seeds import check_seed

__all__ = [
    "SYSTEM",
    "TIMEOUT",
    "Action",
    "Bot",
    "Event",
    "GameKind",
    "GameType",
    "LEVELS",
    "OptionSpec",
    "Timer",
    "get_kind",
    "kinds",
    "legal_only",
    "next_bot_action",
    "play_bots",
    "register",
    "replay",
]

S = TypeVar("S", bound=GameState)


#: The bot levels of every built-in game, weakest first (``GameKind.levels``).
LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
#: What the table plays when a phase's time runs out.
TIMEOUT: Action = {"type": "timeout"}
#: The game modules of this project, each registering its kind on import. Explicit: an import
#: error here is an error, never a silently missing game.
BUILTIN_GAMES: tuple[str, ...] = (
    "games.tobago",
    "games.dao",
    "games.isla_dorada",
    "games.dragons_gold",
)


class GameKind(Generic[S]):
    """One game: its ``GameType``, its declared phases, its bots, and the engine hooks a
    subclass implements (``setup``, ``observe``, ``scores``, ``encode``, ``decode``,
    ``finish``)."""

    #: The version of the engine's part of a snapshot; raise it when ``encode`` changes, so
    #: that snapshots stored before are refused (and the log replayed) instead of misread.
    snapshot_format: ClassVar[int] = 1
    #: The bot level that plays for a seat whose turn clock ran out (``games.turns``): the
    #: gentlest of the game's bots (without it, a random legal action).
    gentlest_bot: ClassVar[str] = "random"
    #: Each bot level's published rating (openskill's ``mu``, the leaderboards' scale): a game
    #: against bots is rated against these fixed anchors (``web.accounts.ratings``). A game
    #: sets them from its tournament (``games.tournament``); empty: the levels spread evenly
    #: from 10 to 40, weakest first.
    level_ratings: ClassVar[Mapping[str, float]] = {}

    def __init__(
        self,
        game_type: GameType,
        phases: Iterable[Phase[S]],
        bots: Mapping[str, Bot] | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        declared = {o.name for o in game_type.options}
        extra = tuple(o for o in turns.BASE_OPTIONS if o.name not in declared)
        self.type = dataclasses.replace(game_type, options=game_type.options + extra)
        #: The declared phases, by name (``over`` is not declared: it ends the game).
        self.phases: dict[str, Phase[S]] = {p.name: p for p in phases}
        #: Every action type of the game, by name (for ``unknown_action``).
        self.action_types: dict[str, list[type[ActionType]]] = {}
        for phase in self.phases.values():
            for move in phase.moves:
                known = self.action_types.setdefault(move.name, [])
                if move.declared not in known:
                    known.append(move.declared)
        #: The bot levels offered for this game, name → bot, weakest first (the first is the
        #: default).
        self.levels: dict[str, Bot] = dict(bots or {})
        #: Older level names, each → the level it became (stored seats keep their name).
        self.aliases: dict[str, str] = dict(aliases or {})
        for old, new in self.aliases.items():
            if new not in self.levels or old in self.levels:
                raise ValueError(f"{game_type.name}: alias {old!r} of an unknown level {new!r}")
        #: Every name a bot seat may have, → its bot: the levels, then the aliases.
        self.bots: dict[str, Bot] = {
            **self.levels,
            **{old: self.levels[new] for old, new in self.aliases.items()},
        }

    @property
    def name(self) -> str:
        return self.type.name

    # --- options, seats, metadata ---------------------------------------------------------

    def resolve_options(self, given: dict | None, seats: int | None = None) -> dict:
        """Defaults filled in, every given option validated (``games.facts.resolve_options``;
        ``seats``: for a kind whose defaults depend on the seat count)."""
        return facts.resolve_options(self.type, given)

    def check_seats(self, seats: Any) -> None:
        """Refuse a seat count this game does not take."""
        facts.check_seats(self.type, seats)

    def metadata(self) -> dict:
        """The game's facts for a new-game form (``games.facts.metadata``)."""
        return facts.metadata(self.type, self.levels, self.aliases)

    def level(self, name: str) -> str:
        """The level a bot seat's ``name`` stands for: itself, or the level it is an alias of."""
        return self.aliases.get(name, name)

    def action_schema(self, ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
        """The JSON Schema of this game's actions: one variant per declared action type (their
        parts in ``$defs``, referred to by ``ref_template``), e.g. for the API description of
        each game's actions (``web.openapi``: components ``Actions_<kind>``)."""
        mode: Literal["validation"] = "validation"
        declared = [(m, mode) for ms in self.action_types.values() for m in ms]
        declared.append((turns.Back, mode))  # every game's: a seat marked absent is back
        refs, defs = models_json_schema(declared, ref_template=ref_template)
        return {"oneOf": [refs[d] for d in declared], **defs}

    # --- the public interface (what every game does the same way) -------------------------

    def new_state(self, seed: int, seats: int, options: dict | None = None) -> S:
        """A new game: seed, seat count and options checked, then the engine's ``setup`` with
        the game's one generator."""
        check_seed(seed, "seed")
        self.check_seats(seats)
        state = self.setup(seed, seats, self.resolve_options(options, seats), generator(seed))
        begin_entered(self.phases, state, [])
        turns.start_clocks(state, self.to_act(state))
        return state

    def seat_count(self, state: S) -> int:
        return state.seats

    def is_over(self, state: S) -> bool:
        return state.phase == OVER

    def phase(self, state: S) -> Phase[S] | None:
        """The running phase's declaration (``None`` once the game is over)."""
        return None if state.phase == OVER else self.phases[state.phase]

    def to_act(self, state: S) -> list[int]:
        """The seats that may act now: the running phase's, but a seat that has spent every
        move the phase still offers it (``Move.limit``) waits for the phase's end."""
        phase = self.phase(state)
        if phase is None:
            return []
        seats = phase.to_act(state)
        if phase.limits and state.phase_moves:
            seats = [s for s in seats if self._legal(state, phase, s)]
        return seats

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """``seat``'s legal actions now; empty when it may not act (or the game is over)."""
        phase = self.phase(state)
        if phase is None or seat not in phase.to_act(state):
            return []
        return self._legal(state, phase, seat)

    @staticmethod
    def _legal(state: S, phase: Phase[S], seat: int) -> list[Action]:
        """The phase's legal actions of ``seat``, less what its running stage does not take
        and what it has spent of the phase's limits."""
        return turns.within_limits(
            state, phase, seat, phase.staged(state, phase.legal(state, seat))
        )

    def timer(self, state: S) -> Timer | None:
        """The clock that runs now (``None``: none): the running phase's ``PhaseTimer``, or else
        the turn clock that runs out first (``games.turns``)."""
        phase = self.phase(state)
        if phase is None:
            return None
        seconds = None if phase.timer is None else phase.timer.seconds(state)
        if seconds is not None:
            return Timer(state.phase_since, float(seconds), dict(TIMEOUT))
        first = turns.first_clock(turns.clocks(state, lambda: phase.to_act(state)))
        if first is None:
            return None
        seat, since = first
        seconds = float(turns.clock_seconds(state, seat))
        return Timer(since, seconds, {"type": turns.TURN_TIMEOUT, "seat": seat})

    def turn_clocks(self, state: S) -> dict[int, int]:
        """Seat → the log entry after which its turn clock started, for every seat whose turn
        clock runs now (empty when none runs: no clock option, or a timed phase). How long
        each lasts is ``games.turns.clock_seconds`` (a bank's, the service's)."""
        timer = self.timer(state)
        phase = self.phase(state)
        if timer is None or phase is None or timer.action["type"] != turns.TURN_TIMEOUT:
            return {}
        return turns.clocks(state, lambda: phase.to_act(state))

    def timeout_action(self, state: S, rng: random.Random, seat: int | None = None) -> Action:
        """What the table plays when a clock runs out: a phase's ``timeout``, or for a turn
        clock the move of the gentlest bot for the late seat (``seat``: the one whose clock ran
        out first, which the service knows; default ``timer``'s; ``games.turns``)."""
        return turns.timeout_action(self, state, rng, seat)

    def absent(self, state: S) -> list[int]:
        """The seats marked absent: the table plays for them at once until they are back."""
        return sorted(state.absent)

    def apply(
        self, state: S, seat: int | None, action: Any, *, limits: bool = False
    ) -> list[Event]:
        """Apply ``seat``'s action (``SYSTEM``: the table's: the current timer's action, or the
        end of a full log) and return the public events; a refusal raises and changes
        nothing. ``limits``: refuse a move past its phase's limit (``Move.limit``): the
        service's check of a player's new action; a log replays as it was written (bots and
        the table choose from the legal actions, which leave out what a seat has spent)."""
        check_shape(action, "action")
        phase = self.phase(state)
        if phase is None:
            raise IllegalAction("the game is over", "action", reason="game_over")
        back = seat is not SYSTEM and action["type"] == turns.BACK
        if seat is SYSTEM:
            actor, work = turns.table_work(self, state, phase, action, self._seat_work)
        elif back:  # any time, the seat's turn or not (no move of the game)
            self.check_seat(state, seat)
            parse(turns.Back, action)
            actor, work = seat, turns.back_work(state, seat)
        else:
            actor, work = seat, self._seat_work(state, phase, seat, action, limits)
        before = phase.to_act(state) if turns.clocked(state) else None
        events = run(self.phases, state, work)
        turns.mark_presence(state, seat, action, actor, events)
        if before is not None:
            turns.track(state, before, self.to_act(state), actor)
        if not back:
            self.after_action(state, seat, action, events)
        return events

    def _seat_work(
        self, state: S, phase: Phase[S], seat: Any, action: Action, limits: bool = False
    ) -> Callable[[list[Event]], None]:
        """``seat``'s action checked (seat, turn, type, with ``limits`` its phase's limit,
        declared shape), as the work that applies it."""
        self.check_seat(state, seat)
        to_act = phase.to_act(state)
        if seat not in to_act:
            raise IllegalAction(
                f"it is not seat {seat}'s turn",
                "seat",
                reason="not_your_turn",
                params={"seat": seat, "to_act": to_act},
            )
        move = self._move(phase, action["type"])
        if limits:
            turns.check_limit(state, phase, seat, move.name)
        checked = parse(move.declared, action)
        phase.check_stage(state, move.name)

        def work(events: list[Event]) -> None:
            turns.counted(
                state, phase, seat, move.name, lambda: move.apply(state, seat, checked, events)
            )

        return work

    def _move(self, phase: Phase[S], kind: str) -> Any:
        """The running phase's declared move of type ``kind``, or the refusal."""
        move = phase.by_name.get(kind)
        if move is not None:
            return move
        if kind not in self.action_types:
            known = ", ".join(sorted(self.action_types))
            raise InvalidInput(
                f"unknown action type {kind!r} (known: {known})",
                "action.type",
                reason="unknown_action",
                params={"action": kind},
            )
        allowed = list(phase.by_name)
        raise IllegalAction(
            f"a {kind!r} action is not possible now (phase {phase.name}; "
            f"possible: {', '.join(allowed)})",
            "action.type",
            reason="action_not_now",
            params={"action": kind, "phase": phase.name, "allowed": allowed},
        )

    def view(self, state: S, seat: int | None) -> dict:
        """Exactly what ``seat`` may see (``None``: a spectator)."""
        if seat is not None:
            self.check_seat(state, seat)
        out = self.observe(state, seat)
        phase = self.phase(state)
        if phase is not None and phase.view is not None:
            out.update(phase.view(state, seat))
        return out

    def phase_hook(self, name: str, hook: Literal["view", "bot", "analysis"]) -> Any:
        """The hook ``hook`` that the phase called ``name`` declares (``None``: none, or no
        such phase, e.g. ``over``): code that reads a view (a bot, the review) asks the phase
        the view names instead of branching on phase names."""
        phase = self.phases.get(name)
        return None if phase is None else getattr(phase, hook)

    def bot_hook(self, phase: str, bot: str) -> Callable[..., Any] | None:
        """The piece that the phase called ``phase`` declares for the bot called ``bot``
        (``Phase.bot``; ``None``: none, the bot plays its default there)."""
        hooks = self.phase_hook(phase, "bot")
        return None if hooks is None else hooks.get(bot)

    def check_seat(self, state: S, seat: Any) -> None:
        """Refuse anything but a seat number of this game."""
        n = self.seat_count(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidInput(
                f"no seat {seat!r} in a {n}-seat game",
                "seat",
                reason="no_such_seat",
                params={"seats": n},
            )

    def winners(self, state: S) -> list[int]:
        """Seats with the best score (ties share the win); empty while the game runs."""
        s = self.scores(state)
        if s is None:
            return []
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def bot_action(
        self,
        state: S,
        seat: int,
        level: str,
        rng: random.Random,
        thinking: Thinking = DEFAULT_THINKING,
    ) -> Action | None:
        """Ask bot ``level`` for ``seat``'s action; the bot sees only that seat's view.
        ``None``: nothing to say now (timed phases only; also when the seat has no legal action
        left, having spent what a phase limits). A bot that searches (its ``thinks`` attribute
        is true) is also given ``thinking``, its budget (``games.thinking``)."""
        bot = self.bots.get(level)
        if bot is None:
            raise InvalidInput(f"unknown bot level {level!r} for {self.name}", "level")
        self.check_seat(state, seat)
        legal = self.legal_actions(state, seat)
        if not legal:  # e.g. every move the phase limits spent: the clock ends it
            return None
        if not getattr(bot, "needs_view", True):  # ``legal_only``: no view to build
            return bot({}, legal, rng)
        if getattr(bot, "thinks", False):
            searching: Any = bot  # a bot that searches takes its budget too
            return searching(self.view(state, seat), legal, rng, thinking=thinking)
        return bot(self.view(state, seat), legal, rng)

    def state_to_json(self, state: S) -> dict:
        """A JSON-able snapshot of ``state``: the base's part, the engine's, the format."""
        own = self.encode(state)
        clash = COMMON_KEYS & own.keys()
        if clash:
            raise ValueError(f"{self.name}: the engine's snapshot uses the base's {clash}")
        return {"format": self.snapshot_formats(), **common_json(state), **own}

    def snapshot_formats(self) -> list[int]:
        """The formats of a snapshot: the base's part's and the engine's."""
        return [COMMON_FORMAT, self.snapshot_format]

    def state_from_json(self, data: Any) -> S:
        """The state a ``state_to_json`` snapshot of this format describes (``InvalidInput``
        for anything else, an older format included)."""
        if not isinstance(data, dict) or data.get("format") != self.snapshot_formats():
            raise InvalidInput(
                f"not a {self.name} state snapshot of format {self.snapshot_formats()}", "state"
            )
        common = common_from_json(data)
        try:
            return self.decode(data, common)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise InvalidInput(f"not a {self.name} state snapshot: {e!r}", "state") from None

    # --- the engine's hooks (override) ----------------------------------------------------

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> S:
        """The initial state; ``options`` are resolved (every option present and valid) and
        ``rng`` is the game's one generator (``games.state``)."""
        raise NotImplementedError

    def observe(self, state: S, seat: int | None) -> dict:
        """The view of ``seat`` (a valid seat, or ``None`` for a spectator)."""
        raise NotImplementedError

    def scores(self, state: S) -> list[float] | None:
        raise NotImplementedError

    def finish(self, state: S, end: str, events: list[Event]) -> None:
        """End the game now, scored as it stands (``end`` says why: ``log_full``, the table's
        end of a game whose log is full): the state enters ``over`` with its scores, and the
        engine's own end event joins ``events``."""
        raise NotImplementedError

    def after_action(self, state: S, seat: int | None, action: Action, events: list[Event]) -> None:
        """What follows every applied action in this game (default: nothing)."""

    def encode(self, state: S) -> dict:
        """The engine's part of a snapshot (JSON-able; no entry named like the base's)."""
        raise NotImplementedError

    def decode(self, data: dict, common: dict[str, Any]) -> S:
        """The state of a snapshot: ``common`` holds the base's part as keyword arguments of
        the state class (``games.state.common_from_json``)."""
        raise NotImplementedError

    def view_schema(self) -> dict | None:
        """A JSON Schema of this game's views (for the API description), or ``None``."""
        return None

    def statistics(self, state: S) -> dict:
        """Game-specific figures of a (finished) game for ``games.simulate`` to average.

        Values are numbers (averaged over games) or lists with one number per seat (averaged per
        bot). Optional; default: none.
        """
        return {}

    # --- hidden information (declared for the generic hidden-information test) -------------

    def private_items(self, state: S, seat: int) -> list[Any]:
        """What only ``seat`` may see now, each item exactly as it appears in ``view(state, seat)``.

        Items are JSON values (objects, lists or strings, not bare numbers), one per occurrence
        in the seat's view, e.g. its cards ``{"element": "fire", "value": 2}``.
        ``tests/test_hidden_information.py`` plays every registered kind through the API and
        counts whole JSON values: each item must be in ``seat``'s own view; the spectator's view
        may show it no more often than the rest of ``seat``'s view does, another seat's view no
        more often than the spectator's plus that seat's own equal items. Distinctive items (a
        card with its unique id) make the check strict; repeated faces (two fire-2s) are handled
        by the counting. Once the game is over, what is still listed must be in every view.
        Default: nothing private.
        """
        return []

    def hidden_items(self, state: S) -> list[Any]:
        """What no seat may see now (e.g. the order of the deck), as *distinctive* JSON values:
        the test requires that none of them appears in any view or legal-action list before the
        end. Default: nothing hidden.
        """
        return []


_REGISTRY: dict[str, GameKind] = {}
_BUILTIN_LOADED = False


def register(kind: GameKind) -> GameKind:
    """Add a game kind to the registry (by ``kind.name``); a second kind of that name is an
    error."""
    known = _REGISTRY.get(kind.name)
    if known is not None and known is not kind:
        raise ValueError(f"a game kind {kind.name!r} is registered already")
    _REGISTRY[kind.name] = kind
    return kind


def get_kind(name: Any) -> GameKind:
    """The registered game kind called ``name``; an ``InvalidInput`` naming the known ones."""
    _load_builtin()
    if not isinstance(name, str) or name not in _REGISTRY:
        raise InvalidInput(
            f"unknown game {name!r} (known: {', '.join(sorted(_REGISTRY))})",
            "game",
            reason="unknown_game",
        )
    return _REGISTRY[name]


def kinds() -> dict[str, GameKind]:
    """Every registered game kind, by name."""
    _load_builtin()
    return dict(_REGISTRY)


def _load_builtin() -> None:
    """Import the built-in game modules (each registers itself), once per process."""
    global _BUILTIN_LOADED
    if not _BUILTIN_LOADED:
        for module in BUILTIN_GAMES:
            importlib.import_module(module)
        _BUILTIN_LOADED = True
