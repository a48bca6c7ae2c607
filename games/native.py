"""Compiled copies of the hottest pure-Python modules, used only while they match their source.

Some modules are one tight loop that the whole service waits on (a game's rollouts, where a
strong bot's decision spends all its time). They are written as plain typed Python, and mypyc
(mypy's compiler for typed Python) turns the very same source into a C extension, two to three
times faster, with the same results (``tests/test_native.py`` plays the compiled and the source
copies side by side).

**Which modules**: those under ``games/`` with the line ``MARKER`` (``modules``), so a game
declares its own and no shared file names it; the Makefile finds them by the same line.

**Building** (``python -m games.native``; ``make run``, ``make test``, ``make bench`` and
``make thinkers`` do it when such a module changed): each module is copied into
``build/native/`` under a private name (``_native_`` and its dotted name with underscores), with
the SHA-256 of its source appended as ``SOURCE_SHA256``, and compiled there. Building needs a C
compiler and Python's headers (the machines have both); the build fails loudly rather than leave
a half-built copy.

**Loading** (``load``): the compiled copy when one was built from the source as it is on disk
now (the hashes match), else the source module itself. An edit without a rebuild is therefore
never run stale, only slower; ``compiled`` tells which one runs.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

#: A module with this line (the whole line) is compiled (``modules``).
MARKER = "# games.native: compiled"

ROOT = Path(__file__).resolve().parent.parent
#: Where the compiled copies (and mypyc's work files) live; ``git`` ignores it.
BUILD = ROOT / "build" / "native"


def modules() -> list[str]:
    """The dotted names of the modules under ``games/`` that carry ``MARKER``."""
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if MARKER in path.read_text(encoding="utf-8").splitlines():
            found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def native_name(name: str) -> str:
    """The compiled copy's module name: private, so it never shadows the source module."""
    return "_native_" + name.replace(".", "_")


def source_path(name: str) -> Path:
    """The source file of module ``name`` (a dotted name below the project's root)."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def source_hash(name: str) -> str:
    """The SHA-256 of module ``name``'s source as it is on disk now."""
    return hashlib.sha256(source_path(name).read_bytes()).hexdigest()


def _import_compiled(name: str) -> ModuleType | None:
    """The compiled copy of ``name`` from ``BUILD``, or ``None`` when none was built or it does
    not import (built for another Python). Imported once a process (``sys.modules``)."""
    if native_name(name) in sys.modules:
        return sys.modules[native_name(name)]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = BUILD / (native_name(name) + suffix)
        if path.exists():
            spec = importlib.util.spec_from_file_location(native_name(name), path)
            if spec is None or spec.loader is None:
                return None
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except ImportError:
                return None
            sys.modules[native_name(name)] = module
            return module
    return None


def load(name: str) -> ModuleType:
    """Module ``name``: its compiled copy when that was built from today's source, else the
    source module."""
    compiled_copy = _import_compiled(name)
    if compiled_copy is not None and getattr(compiled_copy, "SOURCE_SHA256", None) == (
        source_hash(name)
    ):
        return compiled_copy
    return importlib.import_module(name)


def compiled(module: ModuleType) -> bool:
    """Whether ``module`` (from ``load``) is a compiled copy."""
    return module.__name__.startswith("_native_")


def build(name: str) -> Path:
    """Compile module ``name`` into ``BUILD`` (module doc); the extension's path."""
    BUILD.mkdir(parents=True, exist_ok=True)
    copy = BUILD / (native_name(name) + ".py")
    text = source_path(name).read_text(encoding="utf-8")
    copy.write_text(f'{text}\n\nSOURCE_SHA256 = "{source_hash(name)}"\n', encoding="utf-8")
    for old in BUILD.glob(native_name(name) + ".*.so"):
        old.unlink()
    shutil.rmtree(BUILD / "build", ignore_errors=True)
    env = dict(os.environ, MYPYPATH=str(ROOT))  # the project's modules, read as source
    subprocess.run(
        [sys.executable, "-m", "mypyc", copy.name],
        cwd=BUILD,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    built = [BUILD / (native_name(name) + s) for s in importlib.machinery.EXTENSION_SUFFIXES]
    found = [path for path in built if path.exists()]
    if not found:
        raise RuntimeError(f"mypyc built no extension for {name}")
    return found[0]


def main() -> None:
    """Build every module that carries ``MARKER`` and check each loads compiled."""
    for name in modules():
        path = build(name)
        if not compiled(load(name)):
            raise SystemExit(f"{name}: built {path.name}, but it does not load")
        print(f"{name}: compiled ({path.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
