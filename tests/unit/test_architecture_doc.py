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


def _sources(contract: dict) -> list[str]:
    """The modules a contract holds: a layers contract holds every layer of its containers."""
    if contract["type"] == "layers":
        return [f"{container}.{layer.strip()}" for container in contract["containers"]
                for line in contract["layers"] for layer in line.replace("|", ":").split(":")]
    if contract["type"] == "independence":  # its modules may not import each other
        return contract["modules"]
    return contract["source_modules"]


@pytest.mark.parametrize("contract", CONTRACTS, ids=[c["id"] for c in CONTRACTS])
def test_the_doc_names_every_module_of_each_contract(contract):
    sources, forbidden = _row(contract["id"])
    missing = [m for m in _sources(contract) if not _named(m, sources)]
    missing += [m for m in contract.get("forbidden_modules", []) if not _named(m, forbidden)]
    assert not missing, f"{contract['id']}: docs/architecture.md does not name {missing}"


def test_no_contract_keeps_exceptions():
    """Issue 11: the rules hold without written exceptions."""
    assert [c["id"] for c in CONTRACTS if c.get("ignore_imports")] == []


def test_every_module_falls_under_a_contract():
    """Issue 23: no module is left outside the layer rules (a new one is placed in a contract)."""
    import pkgutil

    import keeltui

    sources = [module for contract in CONTRACTS for module in _sources(contract)]
    modules = [info.name for info in pkgutil.walk_packages(keeltui.__path__, "keeltui.")]
    loose = [m for m in modules if not any(m == s or m.startswith(f"{s}.") for s in sources)]
    assert loose == [], f"under no import contract in pyproject.toml: {loose}"


def test_the_import_graph_has_no_circle():
    """Issue 23: no two modules import each other, directly or round a loop (imports for
    type checking only do not count: they never run)."""
    import grimp

    graph = grimp.build_graph("keeltui", exclude_type_checking_imports=True)
    imports = {m: {n for n in graph.find_modules_directly_imported_by(m) if n.startswith("keeltui")} for m in graph.modules}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def loop_from(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        for imported in sorted(imports[module]):
            if state.get(imported) == 1:
                return [*path[path.index(imported):], imported] if imported in path else [module, imported]
            if imported not in state and (found := loop_from(imported, [*path, imported])):
                return found
        state[module] = 2
        return None

    for module in sorted(imports):
        if module not in state:
            assert (circle := loop_from(module, [module])) is None, " -> ".join(circle)


def test_the_app_holds_no_room():
    """Issue 23: the rooms own their behaviour; the App keeps the layout, the global keys,
    the store watcher and the routing, under 250 lines."""
    lines = (ROOT / "keeltui" / "app.py").read_text().count("\n")
    assert lines < 250, f"keeltui/app.py has {lines} lines"
