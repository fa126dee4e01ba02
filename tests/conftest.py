"""Every test runs with its own data folder, so that nothing a test does (a finished terminal game
kept in the score pad's history, a saved game) reaches the data folder of the person running them."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(path))
    return path
