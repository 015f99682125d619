"""docs/architecture.md's contract table matches the import contracts `make lint` checks.

The table is what a maintainer reads; pyproject.toml is what import-linter enforces.
Each contract's row must name every module it constrains and every module it forbids,
so the two cannot drift apart unnoticed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def _row(contract_id: str) -> list[str]:
    """The table row of ``contract_id``: its cells (modules, may not import)."""
    for line in DOC.splitlines():
        if line.startswith(f"| `{contract_id}` |"):
            return [cell.strip() for cell in line.strip().strip("|").split("|")][1:]
    raise AssertionError(f"docs/architecture.md has no row for the contract {contract_id}")


def _named(module: str, cell: str) -> bool:
    """``keeltui.store`` may be written in full or as `store` (the table's short form)."""
    short = module.removeprefix("keeltui.")
    return f"`{module}`" in cell or f"`{short}`" in cell


@pytest.mark.parametrize("contract", CONTRACTS, ids=[c["id"] for c in CONTRACTS])
def test_the_doc_names_every_module_of_each_contract(contract):
    sources, forbidden = _row(contract["id"])
    missing = [m for m in contract["source_modules"] if not _named(m, sources)]
    missing += [m for m in contract["forbidden_modules"] if not _named(m, forbidden)]
    assert not missing, f"{contract['id']}: docs/architecture.md does not name {missing}"


def test_no_contract_keeps_exceptions():
    """Issue 11: the rules hold without written exceptions."""
    assert [c["id"] for c in CONTRACTS if c.get("ignore_imports")] == []
