"""The library source files a workflow rule executes, derived from the code instead of kept by
hand (``lib(command)`` in ``workflow/rules/common.smk``).

Snakemake does not track imported modules, so each rule lists the sources it runs as inputs;
an edit then reruns exactly the rules that execute the edited file. The list is the import
closure of the rule's CLI command: ``cli.py`` and the package ``__init__``, the package modules
that the command's handler imports (and those imported by the ``cli`` helpers it calls), and,
transitively, every package module imported anywhere in those modules (an import inside a
function counts: it may run). Static (``ast``), so computing it at parse time imports nothing
heavy.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PACKAGE_NAME = PACKAGE.name


def _package_imports(tree: ast.AST) -> set[str]:
    """Package modules named by the import statements anywhere under ``tree``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level == 1 or name.split(".")[0] == PACKAGE_NAME:
                base = name.removeprefix(PACKAGE_NAME).lstrip(".")
                if base:
                    found.add(base.split(".")[0])
                else:  # from . import spectra
                    found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(f"{PACKAGE_NAME}."):
                    found.add(alias.name.split(".")[1])
    return {m for m in found if (PACKAGE / f"{m}.py").exists()}


@cache
def _module_tree(module: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))


def import_closure(modules: set[str]) -> set[str]:
    """``modules`` and every package module they import, transitively."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_package_imports(_module_tree(module)) - seen)
    return seen


def _cli_functions() -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in _module_tree("cli").body
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
    """Package modules (names, sorted) that ``entropic-bound <command>`` may execute."""
    return list(_command_modules(command))


def command_imports(command: str) -> list[str]:
    """Package modules (sorted) that ``entropic-bound <command>`` imports itself: those of
    ``cli``'s module level, its handler and the ``cli`` helpers the handler calls. Importing
    them runs their module-level imports too, so a process that imports these is the least
    that every job of the command starts (``bench.job_start_seconds``)."""
    return list(_command_imports(command))


@cache
def _command_imports(command: str) -> tuple[str, ...]:
    functions = _cli_functions()
    roots = _package_imports(ast.Module(body=[n for n in _module_tree("cli").body
                                               if not isinstance(n, ast.FunctionDef)],
                                        type_ignores=[]))
    todo, seen = [_handler_name(command), "_setup"], set()  # main() runs _setup first
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        roots |= _package_imports(functions[name])
        todo += [n.func.id for n in ast.walk(functions[name])
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in functions]
    return tuple(sorted(roots))


@cache  # several rules run one command (make-data); each is parsed once per workflow load
def _command_modules(command: str) -> tuple[str, ...]:
    return tuple(sorted(import_closure(set(_command_imports(command))) | {"cli", "__init__"}))


def command_sources(command: str, root: str = "src") -> list[str]:
    """``command_modules`` as paths relative to the repository root, for a rule's input."""
    return [f"{root}/{PACKAGE_NAME}/{m}.py" for m in command_modules(command)]
