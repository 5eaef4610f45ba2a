"""The package's rooms and the arrows between them, read from the code (docs/design.md,
"Module map"): plumbing is the ground floor, no two rooms import each other in a circle, and
the store is entered through what ``entropic_bound.store`` exports."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from entropic_bound.store.closure import PACKAGE, PACKAGE_NAME, _module_tree

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted({".".join((PACKAGE_NAME, *p.relative_to(PACKAGE).with_suffix("").parts))
                  .removesuffix(".__init__") for p in PACKAGE.rglob("*.py")})


def room(module: str) -> str:
    """A module's room: its subpackage, or the top-level module itself (``cli``)."""
    return module.split(".")[1] if "." in module else "__init__"


def written_imports(module: str) -> set[str]:
    """The modules an import statement of ``module`` names, as written (a lazy export of
    ``entropic_bound.store`` names the package, not the submodule it loads)."""
    import ast

    found = set()
    for node in ast.walk(_module_tree(module)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {name for name in found if name in MODULES}


def imports(module: str) -> set[str]:
    """The package modules ``module``'s import statements name anywhere (a function's import
    counts; a registry's names of modules, which only a closure follows, do not)."""
    return {i for i in written_imports(module)
            if i != PACKAGE_NAME and not module.startswith(i + ".")}


def room_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {room(m): set() for m in MODULES if m != PACKAGE_NAME}
    for m in MODULES:
        if m != PACKAGE_NAME:
            graph[room(m)] |= {room(i) for i in imports(m)} - {room(m)}
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (a path that returns to its start), or None."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path, node, nxt]
            if nxt not in state and (found := visit(nxt, [*path, node])):
                return found
        state[node] = 2
        return None

    return next((c for n in sorted(graph) if n not in state and (c := visit(n, []))), None)


def test_the_circle_finder_finds_a_circle_and_passes_a_tree():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_two_rooms_import_each_other_in_a_circle():
    """claims<->reporting, plumbing<->store, plumbing<->data were circles at 730da7b."""
    assert circle(room_graph()) is None, room_graph()


def test_plumbing_is_the_ground_floor():
    up = {m: sorted(room(i) for i in imports(m) if room(i) != "plumbing")
          for m in MODULES if room(m) == "plumbing"}
    assert {m: r for m, r in up.items() if r} == {}


def test_the_audit_is_one_room():
    audit = {m.rsplit(".", 1)[1] for m in MODULES if room(m) == "audit"}
    assert {"entries", "downstream", "trained_comparison", "file_comparison", "rank_bands",
            "calibration", "verdict_check", "machine_study"} <= audit


REACH = re.compile(r"^\s*(?:from|import)\s+entropic_bound\.store\.(\w+)", re.M)


def test_nothing_outside_the_store_imports_its_submodules():
    reach = [f"{m}: {i}" for m in MODULES if room(m) != "store"
             for i in written_imports(m) if room(i) == "store" and i != f"{PACKAGE_NAME}.store"]
    plugin = ROOT / "src/snakemake_logger_plugin_entropic_bound/__init__.py"
    for path in [ROOT / "Snakefile", plugin, *sorted((ROOT / "workflow").rglob("*.smk"))]:
        reach += [f"{path.relative_to(ROOT)}: {m}" for m in REACH.findall(path.read_text())]
    assert reach == []


def test_the_store_loads_its_exports_lazily():
    """A fetch imports the store package: its exports must not load every submodule."""
    loaded = "print(sorted(m for m in sys.modules if m.startswith('entropic_bound.store.')))"
    code = f"import sys, entropic_bound.store as s\n{loaded}\ns.Store\n{loaded}"
    first, then = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout.splitlines()
    assert first == "[]" and "'entropic_bound.store.layout'" in then
    assert "entropic_bound.store.migration" not in then


@pytest.mark.parametrize("name", __import__("entropic_bound.store").store.__all__)
def test_every_export_of_the_store_resolves(name):
    import entropic_bound.store as store

    assert getattr(store, name) is not None
