"""App factory for a gunicorn process in tests: the service, with every request that reaches
Flask written down (its path, one line each, to the file ``TOBAGO_TEST_SEEN`` names), so a test
can tell what was answered before Flask (``web.stream_guard``) from what went through it."""

from __future__ import annotations

import os

from flask import Flask, request


def create_counting_app() -> Flask:
    from app import create_app

    app = create_app()
    seen = os.environ["TOBAGO_TEST_SEEN"]

    def note() -> None:
        with open(seen, "a", encoding="utf-8") as f:
            f.write(request.path + "\n")

    app.before_request(note)
    return app
