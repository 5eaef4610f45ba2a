"""The commands as people expect them (issue: `--help` cut two summaries mid-sentence, every
command listed --params, --threads and --record, long commands ran silently, inspect found its
vocabulary only from the checkout's root, --step on kept weights was ignored, overlapping
windows passed unsaid)."""

from __future__ import annotations

import io
import logging
from importlib import import_module

import pytest
from conftest import tiny_e6_cell

from entropic_bound import cli
from entropic_bound.measures.inspection import BadInspection, inspect_model
from entropic_bound.plumbing.progress import Progress


def modules():
    return {name: import_module(f"{cli.PACKAGE}.{m}") for name, m in cli.command_names().items()}


def test_help_gives_every_commands_summary_whole(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name, module in modules().items():
        summary = cli.summary(module)
        assert summary.endswith((".", ")")), (name, summary)
        assert f"{name} {summary}" in shown, name
    assert "store Look after the store of job outputs: check, seal, prune, price re-keys, " \
           "migrate, sign, review." in shown


def test_a_command_lists_only_the_shared_options_it_reads(capsys):
    for name, module in modules().items():
        with pytest.raises(SystemExit):
            cli.main([name, "--help"])
        listed = capsys.readouterr().out
        for option in cli.SHARED:
            assert (f"--{option} " in listed) == (option in getattr(module, "OPTIONS", ())), \
                (name, option)
    with pytest.raises(SystemExit) as refused:
        cli.main(["check-snapshot", "stamp.json", "--record", "r.json"])
    assert refused.value.code == 2 and "unrecognized arguments: --record" in capsys.readouterr().err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_line_per_step_on_a_terminal_and_nothing_elsewhere():
    terminal, pipe = Terminal(), io.StringIO()
    Progress("inspect", stream=terminal)("layer 1 of 6 measured")
    Progress("inspect", stream=pipe)("layer 1 of 6 measured")
    Progress("inspect", quiet=True, stream=Terminal())("layer 1 of 6 measured")
    assert terminal.getvalue().startswith("inspect: layer 1 of 6 measured (")
    assert pipe.getvalue() == ""


@pytest.fixture(scope="module")
def cell_run(tmp_path_factory):
    """A run's layout: results/cells/e6/tiny/d16/s0.npz and results/corpora/tiny/meta.json."""
    root = tmp_path_factory.mktemp("run")
    made = tiny_e6_cell(root)
    cells = root / "results/cells/e6/tiny/d16"
    cells.mkdir(parents=True)
    (root / "results/corpora/tiny").mkdir(parents=True)
    (made / "meta.json").rename(root / "results/corpora/tiny/meta.json")
    for suffix in (".npz", ".metrics.parquet"):
        (made / f"c{suffix}").rename(cells / f"s0{suffix}")
    return root


def test_inspect_finds_the_cells_vocabulary_wherever_it_runs(cell_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the run's folder
    steps: list[str] = []
    frame = inspect_model(cell_run / "results/cells/e6/tiny/d16/s0.npz", cell_run / "text.txt",
                          count=4, progress=steps.append)
    assert len(frame) == 2 * 4  # the schema's 2 layers of 4 heads
    assert steps == [f"{cell_run}/results/cells/e6/tiny/d16/s0.npz read: measuring its 2 "
                     "layers on 4 windows"]


def test_step_on_kept_weights_is_refused(cell_run):
    with pytest.raises(BadInspection, match="--step reads a .checkpoints.npz"):
        inspect_model(cell_run / "results/cells/e6/tiny/d16/s0.npz", cell_run / "text.txt",
                      count=4, step=3)


def test_overlapping_windows_are_said(cell_run, caplog):
    """2,000 characters: 4 windows of 16 lie apart, 500 overlap."""
    cell = cell_run / "results/cells/e6/tiny/d16/s0.npz"
    with caplog.at_level(logging.WARNING):
        inspect_model(cell, cell_run / "text.txt", count=4)
        assert "overlap" not in caplog.text
        inspect_model(cell, cell_run / "text.txt", count=500)
    assert "500 windows of 16 tokens overlap in its 2000 tokens" in caplog.text
