"""Each rule's code inputs are derived from the code: the import closure of the CLI command it
runs (entropic_bound.store.closure). These tests hold that closure against what Python
really loads, and against the modules the hand-kept lists used to miss."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from entropic_bound.cli import command_names
from entropic_bound.store import closure as code_inputs
from entropic_bound.store.closure import command_imports, command_modules

COMMANDS = sorted(command_names())


def run_imports(command: str) -> list[str]:
    """The import statements of the command's module and of cli.main, as source lines."""
    trees = [ast.parse(code_inputs.source_path(code_inputs.command_module(command)).read_text()),
             code_inputs._module_tree(code_inputs.CLI)]
    return [ast.unparse(node).strip() for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom | ast.Import)
            and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")]


@pytest.mark.parametrize("command", COMMANDS)
def test_the_closure_holds_every_module_python_loads_for_the_command(command):
    """Python's own record (sys.modules) after parsing the command's arguments and importing
    everything its module and cli.main import: nothing outside the derived closure."""
    code = "\n".join(["import sys", "import entropic_bound.cli as cli",
                      f"cli.build_parser({command!r})", *run_imports(command),
                      "print(__import__('json').dumps(sorted(m for m in sys.modules "
                      "if m.split('.')[0] == 'entropic_bound')))"])
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True,
                                       capture_output=True, text=True).stdout)
    # the record's writer is loaded after the command's outputs exist: it is in no closure
    assert set(loaded) - code_inputs.RECORD_ONLY <= set(command_modules(command)), command
    # what the command imports itself is loaded by it: the job-start floor imports no more
    assert set(command_imports(command)) <= set(loaded), command


def ours(*names: str) -> set[str]:
    return {f"entropic_bound.{n}" if n else "entropic_bound" for n in names}


def test_modules_reached_only_through_other_modules_are_in_the_closure():
    """The kind of module the hand-kept lists missed: reached transitively or
    through an import inside a function, never named by the rule's own command."""
    assert ours("models.students", "data.teachers", "data.mixers") <= set(
        command_modules("measure-fixed"))
    assert "entropic_bound.data.teachers" in command_modules("estimate-fixed")
    assert ours("plumbing.atomic", "cli", "") <= set(command_modules("aggregate-table6"))


def test_one_commands_module_is_in_no_other_commands_closure():
    """Each command's code is its own module: an edit of measure_grid.py misses the store
    entries of measure-grid's jobs only, never training's or another command's."""
    for command in COMMANDS:
        own = code_inputs.command_module(command)
        others = [c for c in COMMANDS if c != command and own in command_modules(c)]
        assert not others, (command, others)


def test_a_module_brings_the_init_of_every_package_above_it():
    """Importing entropic_bound.measures.grid executes entropic_bound/__init__.py and
    entropic_bound/measures/__init__.py first: an edit of either must rerun the measures."""
    sources = code_inputs.command_sources("measure-grid")
    for path in ("src/entropic_bound/__init__.py", "src/entropic_bound/measures/__init__.py",
                 "src/entropic_bound/measures/grid.py", "src/entropic_bound/data/teachers.py"):
        assert path in sources


def test_relative_and_package_imports_resolve_to_modules():
    """`from ..data import teachers` (a submodule named as a package attribute) and
    `from .spectra import x` resolve like Python's import system, whatever the style."""
    tree = ast.parse("from ..data import teachers\nfrom .spectra import gap_rank\n"
                     "import entropic_bound.models.lm\nfrom entropic_bound.plumbing import x\n")
    found = code_inputs._package_imports(tree, "entropic_bound.measures.grid")
    assert found == ours("", "data", "data.teachers", "measures", "measures.spectra", "models",
                         "models.lm", "plumbing")


def test_measures_do_not_depend_on_the_trainers():
    """Measuring reads trained weights; an edit of the training loop retrains (and so
    re-measures through the weights), it must not re-measure by itself."""
    for command in ("measure-grid", "measure-fixed", "measure-lm"):
        trainers = {m for m in command_modules(command)
                    if m.startswith("entropic_bound.training")}
        assert not trainers, command


def test_fetch_code_is_not_in_the_closure_of_anything_downstream_of_the_text():
    for command in ("tokenize-corpus", "corpus-stats", "train-lm", "measure-lm"):
        assert not ours("data.corpora", "data.lazyload") & set(command_modules(command)), command
    assert ours("data.corpora", "data.lazyload") <= set(command_modules("fetch-corpus"))


def test_an_unknown_command_is_an_error_naming_it():
    with pytest.raises(KeyError, match="no command 'train-everything'"):
        command_modules("train-everything")


def test_imports_nested_in_any_statement_are_found():
    """Only statements are walked (an import is one): an import in a function, a method, a
    handler, a with, a loop's else or a match case is found."""
    tree = ast.parse(
        "def f():\n    import entropic_bound.data.teachers\n"
        "class C:\n    def m(self):\n        from entropic_bound.models import lm\n"
        "try:\n    pass\nexcept ImportError:\n    import entropic_bound.measures.spectra\n"
        "with open('x'):\n    from entropic_bound.plumbing import atomic\n"
        "for i in []:\n    pass\nelse:\n    import entropic_bound.data.mixers\n"
        "match 1:\n    case 1:\n        import entropic_bound.training.precision\n")
    found = code_inputs._package_imports(tree, "entropic_bound.cli")
    assert ours("data.teachers", "models.lm", "measures.spectra", "plumbing.atomic",
                "data.mixers", "training.precision") <= found


def test_no_two_modules_of_the_package_import_each_other_in_a_circle():
    """Imports run one way (docs/design.md, "Module map"): a circle, direct or through other
    modules, among the package's modules (a function's import counts; a registry's names of
    the modules it loads by name do not) is a defect."""
    from test_structure import MODULES, circle, imports

    assert circle({m: imports(m) - {m} for m in MODULES}) is None


def test_the_code_digest_follows_every_byte_of_the_closure(tmp_path, monkeypatch):
    """closure_digest reads the sources in the working directory (a copy of the checkout
    here) and changes with any byte of a module in the closure (a blank line appended to
    measures/grid.py), only for the commands whose closure holds it."""
    import shutil

    grid = "entropic_bound.measures.grid"
    shutil.copytree(code_inputs.PACKAGE, tmp_path / "src" / code_inputs.PACKAGE_NAME,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)

    def digests() -> dict[str, str]:
        code_inputs._file_sha256.cache_clear()
        code_inputs.closure_digest.cache_clear()
        return {k: code_inputs.closure_digest(k) for k in COMMANDS}

    try:
        before = digests()
        path = tmp_path / "src" / code_inputs.source_path(grid).relative_to(
            code_inputs.PACKAGE.parent)
        path.write_bytes(path.read_bytes() + b"\n")
        after = digests()
        monkeypatch.chdir(code_inputs.PACKAGE.parents[1])
        assert digests() == before  # the checkout itself: the copy's edit is not in it
    finally:
        code_inputs._file_sha256.cache_clear()
        code_inputs.closure_digest.cache_clear()
    moved = {k for k in COMMANDS if before[k] != after[k]}
    assert moved == {k for k in COMMANDS if grid in command_modules(k)}
    assert "measure-grid" in moved and "train-grid" not in moved
