"""Game engines behind one shared shape (``games.base``: the kind; ``games.phases``: declared
phases; ``games.actions``: declared action types; ``games.state``: the base's part of a state and
the seed convention), and their bots."""

from games.base import GameKind, OptionSpec, get_kind, kinds, register, replay

__all__ = ["GameKind", "OptionSpec", "get_kind", "kinds", "register", "replay"]
