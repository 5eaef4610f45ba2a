"""The library source files a workflow rule executes, derived from the code instead of kept by
hand (``lib(command)`` and ``code_digest(command)`` in ``workflow/rules/common.smk``).

Snakemake does not track imported modules, so each rule names the sources it runs: its ``code``
param is the digest of their bytes (:func:`closure_digest`), which Snakemake's params
rerun-trigger compares with the one its outputs were made with, so an edit reruns exactly the
rules that execute the edited file; a stored job's manifest lists the files
(:func:`command_sources`), and its store key reads their syntax trees. The list is the import
closure of the rule's CLI command: ``cli`` (the dispatcher, which imports only the command it
runs), the command's own module ``entropic_bound.commands.<command>`` and, transitively, every
package module imported anywhere in those (an import inside a function counts: it may run; a
package's lazy export counts as its submodule, ``entropic_bound.store``'s ``_EXPORTS``).
Another command's module is in no other closure, so editing one command reruns (and misses in
the store) only the jobs of the rules that run it. Importing ``entropic_bound.a.b`` also
executes the ``__init__.py`` of ``entropic_bound`` and of ``entropic_bound.a``, so every module
brings its enclosing packages. Modules are named by their dotted names, as in
``sys.modules``. Static (``ast``), so computing it at parse time imports nothing heavy.

One module is left out of every closure, with what only it imports: :data:`RECORD_ONLY`, the
code that writes a stored job's record (its cost, and the machine and software it ran on),
which ``cli`` runs after the command's outputs are written. It says what a job ran on, not what
it computes, and no job reads a record: so an edit of it (a field added) re-keys no stored
entry and reruns no job; the entries keep their records as written.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
PACKAGE_NAME = PACKAGE.name
CLI = f"{PACKAGE_NAME}.cli"
COMMANDS = f"{PACKAGE_NAME}.commands"
RECORD_ONLY = frozenset({f"{PACKAGE_NAME}.plumbing.job_record"})
MODULE_NAME = re.compile(rf"{PACKAGE_NAME}(\.[a-z_][a-z0-9_]*)+")


def source_path(module: str) -> Path | None:
    """The file of a dotted package module (a package's ``__init__.py``), None if none."""
    parts = module.split(".")
    if parts[0] != PACKAGE_NAME:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _enclosing(module: str) -> set[str]:
    """``module`` and the packages whose ``__init__`` importing it executes."""
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def _absolute(node: ast.ImportFrom, module: str) -> str:
    """The absolute module an ``ImportFrom`` in ``module`` names (resolving ``from ..x``)."""
    if not node.level:
        return node.module or ""
    is_package = source_path(module).name == "__init__.py"
    base = module.split(".")[: len(module.split(".")) - node.level + is_package]
    return ".".join([*base, *([node.module] if node.module else [])])


def _statements(tree: ast.AST) -> Iterator[ast.stmt]:
    """Every statement under ``tree``, nested ones included (an import is a statement, so the
    expressions, nine tenths of a tree's nodes, need no visit)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, None) or ():
                yield child
                todo.append(child)


def _package_imports(tree: ast.AST, module: str) -> set[str]:
    """Package modules named by the import statements anywhere under ``tree`` (``module`` is
    where the tree comes from, for relative imports), with their enclosing packages."""
    named: set[str] = set()
    for node in _statements(tree):
        if isinstance(node, ast.ImportFrom):
            target = _absolute(node, module)
            named.add(target)
            # from entropic_bound.measures import spectra: a submodule, or a name of the package
            # (a lazy export names the submodule it loads: from entropic_bound.store import Store)
            exports = _lazy_exports(target) if source_path(target) is not None else {}
            named.update(f"{target}.{exports.get(alias.name, alias.name)}"
                         for alias in node.names)
        elif isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
    # a registry names modules it loads by name (plumbing.experiments: each experiment's claims
    # and sections): a text that is exactly a package module's dotted name counts as an import
    named.update(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                 and isinstance(node.value, str) and MODULE_NAME.fullmatch(node.value))
    found = {m for m in named if source_path(m) is not None}
    return set().union(*map(_enclosing, found)) if found else set()


@cache
def _lazy_exports(package: str) -> dict[str, str]:
    """Name -> submodule of a package's lazy exports (PEP 562): its ``_EXPORTS`` literal,
    ``{name: (submodule, attribute)}``, which its ``__getattr__`` imports on first use."""
    for node in _module_tree(package).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_EXPORTS"
                                                for t in node.targets):
            return {name: where[0] for name, where in ast.literal_eval(node.value).items()}
    return {}


@cache
def _module_tree(module: str) -> ast.Module:
    return ast.parse(source_path(module).read_text(encoding="utf-8"))


@cache  # every command's closure walks the same modules: each is walked once per load
def _module_imports(module: str) -> frozenset[str]:
    return frozenset(_package_imports(_module_tree(module), module))


def import_closure(modules: set[str]) -> set[str]:
    """``modules`` and every package module they import, transitively (not :data:`RECORD_ONLY`
    nor what only it imports)."""
    seen: set[str] = set()
    todo = list(set(modules) - RECORD_ONLY)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_module_imports(module) - seen - RECORD_ONLY)
    return seen


def command_module(command: str) -> str:
    """``train-grid`` -> ``entropic_bound.commands.train_grid`` (each command is a module of
    :mod:`entropic_bound.commands`, found as ``cli`` finds it)."""
    name = command.replace("-", "_")
    module = f"{COMMANDS}.{name}"
    if command.startswith("_") or name.startswith("_") or source_path(module) is None:
        raise KeyError(f"entropic-bound has no command {command!r} (see {COMMANDS})")
    return module


def command_modules(command: str) -> list[str]:
    """Package modules (dotted names, sorted) that ``entropic-bound <command>`` may execute."""
    return list(_command_modules(command))


def command_imports(command: str) -> list[str]:
    """Package modules (sorted) that ``entropic-bound <command>`` imports itself: those that
    ``cli`` imports (at module level and in ``main``) and those its command module imports
    (at module level and in ``run``). Importing them runs their module-level imports too, so a
    process that imports these is the least that every job of the command starts
    (``benchmarks.dag.job_start_seconds``)."""
    return list(_command_imports(command))


@cache
def _command_imports(command: str) -> tuple[str, ...]:
    module = command_module(command)
    # cli's imports at module level and in main(), and the command module's own imports
    found = _package_imports(_module_tree(CLI), CLI) | _package_imports(_module_tree(module),
                                                                        module)
    return tuple(sorted(found | _enclosing(module)))


@cache  # several rules run one command (make-data); each is parsed once per workflow load
def _command_modules(command: str) -> tuple[str, ...]:
    return tuple(sorted(import_closure({*_command_imports(command), CLI})))


def command_sources(command: str, root: str = "src") -> list[str]:
    """``command_modules`` as paths relative to the repository root (a stored job's manifest
    lists them as its ``code`` input)."""
    return [f"{root}/{source_path(m).relative_to(PACKAGE.parent).as_posix()}"
            for m in command_modules(command)]


@cache
def _file_sha256(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as err:
        raise FileNotFoundError(f"{path}: cannot read a library source the workflow runs "
                                f"({err.strerror}); run Snakemake in the checkout, where src/ "
                                f"is") from None


@cache
def closure_digest(command: str) -> str:
    """sha256 over ``path sha256(bytes)`` lines of :func:`command_sources`, read from the
    working directory (where the jobs run and their store keys read the same files): a rule's
    ``code`` param. Snakemake's params rerun-trigger compares it with the value the job's
    outputs were made with, so an edit (of any byte: a comment too) reruns exactly the jobs
    that execute the edited file, and so does a module entering or leaving the closure. A
    param rather than ~20 source files as inputs of each of ~750 jobs: Snakemake's DAG pays for
    every input file of every job (docs/performance.md, "A run with nothing to do")."""
    lines = (f"{path} {_file_sha256(path)}\n" for path in command_sources(command))
    return hashlib.sha256("".join(lines).encode()).hexdigest()
