"""Game engines behind one shared shape (see ``games.base``), and their bots."""

from games.base import GameKind, OptionSpec, get_kind, kinds, register, replay

__all__ = ["GameKind", "OptionSpec", "get_kind", "kinds", "register", "replay"]
