"""A stored job's command rendered from its manifest (entropic_bound.store.command) is the
argument list the shell would make of Snakemake's formatting of the same command."""

from __future__ import annotations

import json
import shlex
from types import SimpleNamespace

import pytest
from snakemake.utils import format as snakemake_format

from entropic_bound.store.command import argv
from entropic_bound.store.files import Refused

COMMAND = ("entropic-bound train-grid --spec {params.spec:q} --record {output.record}"
           " --threads {threads} --params {params.train:q} --data {input.data}"
           " --weights {output.weights}")
DATASET_SPEC = json.dumps({"kind": "softmax_qk", "r_star": 2, "note": "it's \"quoted\" $HOME *"})


def manifest(**over) -> dict:
    found = {"command": COMMAND, "params": {"train": json.dumps({"lr": 0.01}), "threads": 2},
             "given": {"spec": DATASET_SPEC}, "inputs": {"data": ["results/data/e3/x.npz"]},
             "outputs": {"record": "results/benchmarks/r/x.json", "weights": "results/w.npz"}}
    return {**found, **over}


def test_the_rendered_command_is_what_the_shell_makes_of_snakemakes_formatting():
    m = manifest()
    values = {**m["given"], **m["params"]}
    formatted = snakemake_format(
        COMMAND, params=SimpleNamespace(**values), threads=values["threads"],
        input=SimpleNamespace(data=" ".join(m["inputs"]["data"])),
        output=SimpleNamespace(**m["outputs"]))
    assert argv(COMMAND, m) == shlex.split(formatted)
    assert argv(COMMAND, m)[3] == DATASET_SPEC  # one word, quotes and all


def test_several_input_paths_are_several_words():
    m = manifest(command="entropic-bound x --data {input.data}",
                 inputs={"data": ["a.npz", "b.npz"]})
    assert argv(m["command"], m) == ["entropic-bound", "x", "--data", "a.npz", "b.npz"]


@pytest.mark.parametrize(("command", "says"), [
    ("entropic-bound x --spec {params.spec}", "the shell would read it"),
    ("entropic-bound x --n {params.missing}", "is not a field of the job"),
    ("entropic-bound x --n={threads}", "a field is a word of its own"),
    ("entropic-bound x --log {log}", "is not a field of the job"),
    ("entropic-bound x {wildcards.seed}", "is not a field of the job"),
])
def test_a_field_the_store_cannot_render_as_the_shell_would_is_refused(command, says):
    with pytest.raises(Refused, match=says):
        argv(command, manifest(command=command))


def test_every_stored_rule_logs_under_its_own_name():
    """The wrapper reads a job's rule off its log (logs/<rule>/...)."""
    import re
    from pathlib import Path

    from entropic_bound.store.command import rule_of_log

    root = Path(__file__).resolve().parents[2] / "workflow/rules"
    blocks = [b for f in sorted(root.glob("*.smk")) for b in f.read_text().split("\nrule ")[1:]]
    stored = [b for b in blocks if "**stored(" in b]
    assert len(stored) == 10
    for block in stored:
        log = re.search(r"    log:\n\s+\"([^\"]+)\"", block).group(1)
        assert rule_of_log(log) == block.split(":", 1)[0], block[:80]
    with pytest.raises(Refused, match="expected logs/<rule>/"):
        rule_of_log("elsewhere/x.log")
