"""The library source files a workflow rule executes, derived from the code instead of kept by
hand (``lib(command)`` in ``workflow/rules/common.smk``).

Snakemake does not track imported modules, so each rule lists the sources it runs as inputs;
an edit then reruns exactly the rules that execute the edited file. The list is the import
closure of the rule's CLI command: ``cli`` and the package ``__init__``, the package modules
that the command's handler imports (and those imported by the ``cli`` helpers it calls), and,
transitively, every package module imported anywhere in those modules (an import inside a
function counts: it may run). Importing ``entropic_bound.a.b`` also executes the
``__init__.py`` of ``entropic_bound`` and of ``entropic_bound.a``, so every module brings its
enclosing packages. Modules are named by their dotted names, as in ``sys.modules``. Static
(``ast``), so computing it at parse time imports nothing heavy.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
PACKAGE_NAME = PACKAGE.name
CLI = f"{PACKAGE_NAME}.cli"


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


def _package_imports(tree: ast.AST, module: str) -> set[str]:
    """Package modules named by the import statements anywhere under ``tree`` (``module`` is
    where the tree comes from, for relative imports), with their enclosing packages."""
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _absolute(node, module)
            named.add(target)
            # from entropic_bound.measures import spectra: a submodule, or a name of the package
            named.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
    found = {m for m in named if source_path(m) is not None}
    return set().union(*map(_enclosing, found)) if found else set()


@cache
def _module_tree(module: str) -> ast.Module:
    return ast.parse(source_path(module).read_text(encoding="utf-8"))


def import_closure(modules: set[str]) -> set[str]:
    """``modules`` and every package module they import, transitively."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_package_imports(_module_tree(module), module) - seen)
    return seen


def _cli_functions() -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in _module_tree(CLI).body
            if isinstance(node, ast.FunctionDef)}


def _handler_name(command: str) -> str:
    """``train-grid`` -> ``cmd_train_grid``; checked against ``build_parser``'s table."""
    for node in ast.walk(_cli_functions()["build_parser"]):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "add" and len(node.args) >= 2
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == command
                and isinstance(node.args[1], ast.Name)):
            return node.args[1].id
    raise KeyError(f"entropic-bound has no command {command!r} (see cli.build_parser)")


def command_modules(command: str) -> list[str]:
    """Package modules (dotted names, sorted) that ``entropic-bound <command>`` may execute."""
    return list(_command_modules(command))


def command_imports(command: str) -> list[str]:
    """Package modules (sorted) that ``entropic-bound <command>`` imports itself: those of
    ``cli``'s module level, its handler and the ``cli`` helpers the handler calls. Importing
    them runs their module-level imports too, so a process that imports these is the least
    that every job of the command starts (``benchmarks.dag.job_start_seconds``)."""
    return list(_command_imports(command))


@cache
def _command_imports(command: str) -> tuple[str, ...]:
    functions = _cli_functions()
    roots = _package_imports(ast.Module(body=[n for n in _module_tree(CLI).body
                                               if not isinstance(n, ast.FunctionDef)],
                                        type_ignores=[]), CLI)
    todo, seen = [_handler_name(command), "_setup"], set()  # main() runs _setup first
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        roots |= _package_imports(functions[name], CLI)
        todo += [n.func.id for n in ast.walk(functions[name])
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in functions]
    return tuple(sorted(roots))


@cache  # several rules run one command (make-data); each is parsed once per workflow load
def _command_modules(command: str) -> tuple[str, ...]:
    # cli itself is executed, but only through the parts _command_imports has read
    return tuple(sorted(import_closure(set(_command_imports(command))) | _enclosing(CLI)))


def command_sources(command: str, root: str = "src") -> list[str]:
    """``command_modules`` as paths relative to the repository root, for a rule's input."""
    return [f"{root}/{source_path(m).relative_to(PACKAGE.parent).as_posix()}"
            for m in command_modules(command)]
