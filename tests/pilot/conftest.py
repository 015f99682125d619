from __future__ import annotations

import pytest

from keeltui.app import KeelApp
from keeltui.config import load_config
from keeltui.store import Store
from tests.conftest import write_config


@pytest.fixture
def make_app(tmp_path, loopback):
    """Build a KeelApp over a fresh store and the loopback brain (extra TOML appended)."""
    stores: list[Store] = []

    def build(extra: str = "", base_url: str | None = None, timeout: float = 5.0) -> KeelApp:
        path = write_config(tmp_path / "config.toml", base_url or loopback.url,
                            extra + f'\n[paths]\ndatabase = "{tmp_path / "k.db"}"\nstatus_file = "{tmp_path / "status"}"\n',
                            timeout=timeout)
        config = load_config(path, env={})
        store = Store(config.database_path())
        stores.append(store)
        return KeelApp(config, store)

    yield build
    for store in stores:
        store.close()
