"""Shared fixtures: the app with a temporary SQLite file, and its test client."""

from __future__ import annotations

import pytest

from app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3")})


@pytest.fixture
def client(app):
    return app.test_client()
