"""Where a puzzle's island comes from: ``IslandRef``, a built-in island's name or a generated
island's seed, each with an optional landmarks seed.

A module of its own because both ``generate`` (a ``Puzzle`` keeps its source) and ``codes`` (a
code stores it) need it, and ``codes`` builds on ``generate``: here neither imports the other
back.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexmap.island import Island


@dataclass(frozen=True)
class IslandRef:
    """How to rebuild a puzzle's island: a built-in ``name`` or a generated ``seed``."""

    name: str | None = None
    seed: int | None = None
    landmarks_seed: int | None = None

    @property
    def generated(self) -> bool:
        return self.name is None

    def load(self) -> Island:
        """The island (with landmarks), kept by ``hexmap.catalog``."""
        from hexmap import catalog

        if self.generated:
            assert self.seed is not None
            return catalog.generated_island(self.seed, landmarks_seed=self.landmarks_seed)
        assert self.name is not None
        return catalog.classic_island(self.name, landmarks_seed=self.landmarks_seed or 0)

    def to_json(self) -> dict:
        if self.generated:
            return {"kind": "generated", "seed": self.seed, "landmarks_seed": self.landmarks_seed}
        return {"kind": "builtin", "name": self.name, "landmarks_seed": self.landmarks_seed}
