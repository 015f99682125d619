"""Re-export packages that load each name on use (keeltui.infra.lazy_packages).

The fake packages are written to a temp folder and imported in a fresh interpreter, so the
finder never touches this test process's modules. The openai tests run the pinned SDK both
ways and compare every name: a change in how ``openai.types`` is laid out fails here first.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from keeltui.infra.lazy_packages import reexports


@pytest.mark.parametrize(
    ("source", "table"),
    [
        ("from .a import A as A\nfrom .b import B, C as D\n", {"A": ("a", "A"), "B": ("b", "B"), "D": ("b", "C")}),
        ('"""Doc."""\nfrom __future__ import annotations\nfrom .a import A\n', {"A": ("a", "A")}),
        ("from . import sub\n", {"sub": (None, "sub")}),
        ("", {}),
        ("from .a import *\n", None),  # a star import: run it as written
        ("from .a import A\nA.x = 1\n", None),  # a statement: run it as written
        ("from os import path\n", None),  # an absolute import: run it as written
        ("import os\n", None),
        ("from ..up import U\n", None),
    ],
)
def test_only_an_init_of_relative_reexports_is_read_as_a_table(source: str, table: dict | None) -> None:
    assert reexports(source) == table


def _run(code: str, path: Path | None = None, given: object = None) -> dict:
    env_path = [str(path)] if path else []
    prog = f"import sys; sys.path[:0] = {env_path!r}\n" + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=180,
                          input=json.dumps(given))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fake_package(root: Path) -> None:
    pkg = root / "fakepkg"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "from __future__ import annotations\n"
        "from .alpha import Alpha as Alpha\n"
        "from .beta import Beta, helper as beta_helper\n"
        "from .same import same as same\n"  # a name shadowed by its own submodule
        "from . import inner\n"
    )
    (pkg / "alpha.py").write_text("LOADED.append('alpha')\nclass Alpha: pass\n".replace("LOADED", "__import__('builtins').LOADED"))
    (pkg / "beta.py").write_text("__import__('builtins').LOADED.append('beta')\nclass Beta: pass\ndef helper(): return 7\n")
    (pkg / "same.py").write_text("__import__('builtins').LOADED.append('same')\nsame = 'the value'\n")
    (pkg / "gamma.py").write_text("__import__('builtins').LOADED.append('gamma')\nG = 3\n")
    (pkg / "inner" / "__init__.py").write_text("from .deep import Deep as Deep\n")
    (pkg / "inner" / "deep.py").write_text("__import__('builtins').LOADED.append('deep')\nclass Deep: pass\n")
    plain = root / "plainpkg"
    plain.mkdir()
    (plain / "__init__.py").write_text("from .one import One\nEXTRA = One.n + 1\n")
    (plain / "one.py").write_text("__import__('builtins').LOADED.append('one')\nclass One:\n    n = 1\n")


def test_each_name_loads_its_module_on_first_use_and_is_the_eager_value(tmp_path: Path) -> None:
    _fake_package(tmp_path)
    seen = _run(
        """
        import builtins, json
        builtins.LOADED = []
        from keeltui.infra.lazy_packages import load_reexports_on_use
        load_reexports_on_use("fakepkg"); load_reexports_on_use("fakepkg")  # twice: one finder
        import fakepkg
        at_import = list(builtins.LOADED)
        alpha = fakepkg.Alpha
        after_alpha = list(builtins.LOADED)
        from fakepkg import beta_helper
        from fakepkg.alpha import Alpha
        import fakepkg.gamma
        try:
            fakepkg.nothing_here
            missing = "no error"
        except AttributeError as exc:
            missing = str(exc)
        print(json.dumps({
            "at_import": at_import, "after_alpha": after_alpha,
            "same": fakepkg.same, "helper": beta_helper(), "one_alpha": alpha is Alpha,
            "beta_module_bound": hasattr(fakepkg, "beta"), "gamma": fakepkg.gamma.G,
            "deep": fakepkg.inner.Deep.__module__, "missing": missing,
            "finders": sum(type(f).__name__ == "_Finder" for f in sys.meta_path),
            "dir": [n for n in dir(fakepkg) if not n.startswith("__")],
            "loaded": builtins.LOADED,
        }))
        """,
        tmp_path,
    )
    assert seen["at_import"] == ["same"]  # only the shadowed name, bound as eager Python binds it
    assert seen["after_alpha"] == ["same", "alpha"]
    assert seen["same"] == "the value" and seen["helper"] == 7 and seen["one_alpha"] is True
    assert seen["beta_module_bound"] is True  # eager imports bind loaded submodules too
    assert seen["gamma"] == 3 and seen["deep"] == "fakepkg.inner.deep"
    assert seen["missing"] == "module 'fakepkg' has no attribute 'nothing_here'"
    assert seen["finders"] == 1
    assert {"Alpha", "Beta", "beta_helper", "same", "inner"} <= set(seen["dir"])
    assert "deep" in seen["loaded"]


def test_a_package_that_does_more_than_reexport_runs_as_written(tmp_path: Path) -> None:
    _fake_package(tmp_path)
    seen = _run(
        """
        import builtins, json
        builtins.LOADED = []
        from keeltui.infra.lazy_packages import load_reexports_on_use
        load_reexports_on_use("plainpkg")
        import plainpkg
        print(json.dumps({"loaded": builtins.LOADED, "extra": plainpkg.EXTRA,
                          "table": hasattr(plainpkg, "__lazy_reexports__")}))
        """,
        tmp_path,
    )
    assert seen == {"loaded": ["one"], "extra": 2, "table": False}


_OPENAI_NAMES = """
    import importlib, json, pkgutil, sys
    LAZY = {lazy}
    if LAZY:
        from keeltui.brain import Brain
        from keeltui.config import BrainConfig
        Brain(BrainConfig(base_url="http://127.0.0.1:9/v1")).client()
        loaded_by_client = sum(m.startswith("openai.types") for m in sys.modules)
    import openai.types
    packages = ["openai.types"] + [
        "openai.types." + m.name for m in pkgutil.walk_packages(openai.types.__path__, onerror=lambda _: None)
        if m.ispkg
    ]
    def ident(value):
        return f"{{getattr(value, '__module__', '')}}:{{getattr(value, '__qualname__', getattr(value, '__name__', type(value).__name__))}}"
    eager_names = json.load(sys.stdin)  # what the eager run found, resolved here by name
    names, lazy_packages = {{}}, []
    for package in packages:
        module = importlib.import_module(package)
        if getattr(module, "__lazy_reexports__", None) is not None:
            lazy_packages.append(package)
        for name in [n for n in vars(module) if not n.startswith("_")]:
            names[package + "." + name] = ident(getattr(module, name))
    for dotted in eager_names or ():
        package, name = dotted.rsplit(".", 1)
        names[dotted] = ident(getattr(importlib.import_module(package), name))
    out = {{"names": names, "lazy": lazy_packages}}
    if LAZY:
        out["loaded_by_client"] = loaded_by_client
    print(json.dumps(out))
"""


def test_the_clients_openai_types_are_the_eager_imports_and_load_on_use() -> None:
    pytest.importorskip("openai")
    eager = _run(_OPENAI_NAMES.format(lazy=False))
    # `from __future__ import annotations` binds a name too; nothing reads it.
    wanted = sorted(n for n, v in eager["names"].items() if not v.startswith("__future__:"))
    lazy = _run(_OPENAI_NAMES.format(lazy=True), given=wanted)
    # The pinned SDK's openai.types and its chat package are re-export tables: if a release
    # turns one into code, it runs eagerly again and this fails by name.
    assert {"openai.types", "openai.types.chat"} <= set(lazy["lazy"])
    assert lazy["loaded_by_client"] < 150, "openai.types loaded whole by the client again"
    assert eager["lazy"] == []
    assert len(wanted) > 2000  # the whole of openai.types, every package's names
    differ = {n: (eager["names"][n], lazy["names"][n]) for n in wanted if eager["names"][n] != lazy["names"][n]}
    assert not differ, list(differ.items())[:10]
