"""Each rule's code inputs are derived from the code: the import closure of the CLI command it
runs (entropic_bound.code_inputs). These tests hold that closure against what Python really
loads, and against the modules the hand-kept lists used to miss."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from entropic_bound import code_inputs
from entropic_bound.cli import build_parser
from entropic_bound.code_inputs import command_imports, command_modules

COMMANDS = sorted(next(a for a in build_parser()._actions if a.choices).choices)


def handler_imports(command: str) -> list[str]:
    """The handler's own import statements, as absolute imports."""
    handler = code_inputs._cli_functions()[code_inputs._handler_name(command)]
    lines = []
    for node in ast.walk(handler):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = ", ".join(a.name for a in node.names)
            lines.append(f"from entropic_bound.{node.module} import {names}" if node.module
                         else f"from entropic_bound import {names}")
    return lines


@pytest.mark.parametrize("command", COMMANDS)
def test_the_closure_holds_every_module_python_loads_for_the_command(command):
    code = "\n".join(["import sys", "import entropic_bound.cli", *handler_imports(command),
                      "print(__import__('json').dumps(sorted(m.split('.')[1] for m in "
                      "sys.modules if m.startswith('entropic_bound.'))))"])
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                       capture_output=True, text=True).stdout)
    assert set(loaded) <= set(command_modules(command)), command
    # what the command imports itself is loaded by it: the job-start floor imports no more
    assert set(command_imports(command)) <= set(loaded), command


def test_modules_reached_only_through_other_modules_are_in_the_closure():
    """The kind of module the hand-kept lists missed (issue 16): reached transitively or
    through an import inside a function, never named by the rule's own command."""
    assert {"students", "teachers", "mixers"} <= set(command_modules("measure-fixed"))
    assert "teachers" in command_modules("estimate-fixed")
    assert {"atomic", "cli", "__init__"} <= set(command_modules("aggregate-table6"))


def test_measures_do_not_depend_on_the_trainers():
    """Measuring reads trained weights; an edit of the training loop retrains (and so
    re-measures through the weights), it must not re-measure by itself."""
    for command in ("measure-grid", "measure-fixed", "measure-lm"):
        trainers = {"train", "fast", "train_grid", "train_fixed", "train_lm"}
        assert not trainers & set(command_modules(command)), command


def test_fetch_code_is_not_in_the_closure_of_anything_downstream_of_the_text():
    for command in ("tokenize-corpus", "corpus-stats", "train-lm", "measure-lm"):
        assert not {"corpora", "lazyload"} & set(command_modules(command)), command
    assert {"corpora", "lazyload"} <= set(command_modules("fetch-corpus"))


def test_an_unknown_command_is_an_error_naming_it():
    with pytest.raises(KeyError, match="no command 'train-everything'"):
        command_modules("train-everything")
