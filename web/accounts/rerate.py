"""Rate every rated game again, from the places and anchors stored with the games
(``web.accounts.ratings.rebuild``): after a restore that lost the ``ratings`` table, or a change
of the anchors. A command line of its own, so the ratings module needs no configuration.

    python -m web.accounts.rerate [--database URL]   # default: the service's DATABASE
"""

from __future__ import annotations

import argparse

from web.accounts.ratings import rebuild
from web.config import database
from web.storage import open_store
from web.storage.accounts import AccountsSql


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m web.accounts.rerate",
        description="Rebuild every rating from the rated games.",
    )
    parser.add_argument(
        "--database", help="default: the service's DATABASE setting (README, 'Settings')"
    )
    args = parser.parse_args(argv)
    store = open_store(args.database or database())
    assert isinstance(store, AccountsSql)
    print(f"rated again: {rebuild(store)} games")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
