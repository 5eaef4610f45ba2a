"""The store through Snakemake (the quick profile's own store, results/store): a run fills it,
a fresh clone given only the store fetches every stored job and writes identical tables, a
corrupt entry is caught and recomputed, an entry under another job's key is refused, an edit
that changes no code re-keys nothing and a code edit misses exactly its own rule's entries, a
changed corpus text re-keys that corpus's jobs alone, and two runs share one store."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import QUICK, copy_workflow, snakemake

from entropic_bound.store import plan as store_plans
from entropic_bound.store import trust
from entropic_bound.store.layout import Store
from entropic_bound.store.maintenance import seal as seal_store

# the rules whose jobs the store holds (cache: True), and how many jobs each has in the quick DAG
STORED = {"train_grid_cells": 8 + 3, "measure_grid_cells": 8 + 3,  # E3 2x2x2, E5 3 spectra
          "train_fixed_cells": 2 + 2, "measure_fixed_cells": 2 + 2,  # E1 2 seeds, E2 2 operators
          "estimate_e1_data": 2, "estimate_e4_data": 22,  # E3's 8 and the settings' 6 + 4 + 4
          "fetch_corpus": 6,  # the pinned texts: a moved registry cannot stop a resumed run
          "train_lm_cells": 6 * 2 * 2,  # corpora x d_models x seeds
          "train_e7_cells": 6 * 1 * 2}  # corpora x E7's one depth-3 cell x seeds
# E6's and E7's measures read the trajectory their training measured, in seconds: those jobs
# are not stored


def store_plan(workdir, *args: str) -> dict[str, Counter]:
    """Per stored rule, how many of its planned jobs a dry run would fetch from the store and
    how many it would compute."""
    return store_plans.store_plan([*QUICK, *args], workdir)


def entries(root) -> dict[str, list[Path]]:
    """Sealed entry -> its files (seal excluded)."""
    listing = Store(root).listing()
    return {key: [Path(root) / f"{key}{suffix}" for suffix in suffixes]
            for key, suffixes in listing.files.items() if key in listing.seals}


def seal_entry(root, key: str) -> None:
    """Seal entry ``key`` again from its files as they are now, and sign it with the tests'
    key (trusted as the user's own): only a recomputation can tell it from a true entry."""
    (Path(root) / f"{key}.sha256").unlink(missing_ok=True)
    seal_store(Store(root))
    if (signer := trust.load_signer()) is not None:
        trust.sign(Store(root), signer, "entry", key)


def files_as_they_are(workdir) -> dict[str, tuple]:
    """Every file and link under ``workdir`` but Snakemake's .snakemake/: its kind, size, mtime
    and (for a link) target."""
    found = {}
    for path in sorted(workdir.rglob("*")):
        rel = path.relative_to(workdir)
        if rel.parts[0] == ".snakemake":
            continue
        st = path.lstat()
        found[str(rel)] = (path.is_symlink() and str(path.readlink()), st.st_size,
                           st.st_mtime_ns, path.is_dir())
    return found


def tables(workdir) -> dict[str, pd.DataFrame]:
    """The run's tables, but the audit's ``speed_ratio``: a timing of this machine as the
    audit ran (audit/calibration.py, in half octaves), which a busy machine moves (1.41
    against 1.0 was seen with a second job on the 2 cores); every number of the paper's
    tables, and the audit's comparisons, stay compared exactly."""
    found = {p.name: pd.read_parquet(p)
             for p in sorted((workdir / "results/tables").glob("*.parquet"))}
    if "audit.parquet" in found:
        found["audit.parquet"] = found["audit.parquet"].drop(columns="speed_ratio")
    return found


@pytest.fixture(scope="module")
def clone_with_store(quick_run, tmp_path_factory):
    """A fresh copy of the workflow with nothing but the quick run's store."""
    work = copy_workflow(tmp_path_factory.mktemp("clone"))
    shutil.copytree(quick_run / "results/store", work / "results/store")
    return work


def test_a_run_fills_the_store_with_one_sealed_entry_per_stored_job(quick_run):
    stored = entries(quick_run / "results/store")
    records = [json.loads(f.read_text()) for files in stored.values() for f in files
               if f.name.endswith("_record.json")]
    commands = Counter(r["argv"][1] for r in records)
    assert sum(STORED.values()) == len(stored) == len(records)
    assert commands["train-grid"] == STORED["train_grid_cells"]
    # E7's deeper cells are E6's command at other params
    assert commands["train-lm"] == STORED["train_lm_cells"] + STORED["train_e7_cells"]
    assert seal_store(Store(quick_run / "results/store")) == []  # the run sealed every entry
    # realisations of the tokenizer jobs alone: no key reads a teacher array's bytes
    realised = sorted((quick_run / "results/store/realisations").glob("*.json"))
    assert [sorted(json.loads(p.read_text())) for p in realised] == [["meta", "tokens"]] * 6
    assert Store(quick_run / "results/store").check() == []
    # no checkpoint file enters the store: the trajectory is measured during training, and
    # E6's kept weights are stored in half precision
    assert not [f for files in stored.values() for f in files if "checkpoint" in f.name]
    import numpy as np

    from entropic_bound.plumbing.atomic import open_npz

    lm_weights = [f for files in stored.values() for f in files
                  if f.name.endswith("_weights.npz") and any(
                      "train-lm" in g.read_text() for g in files if g.suffix == ".json")]
    assert len(lm_weights) == STORED["train_lm_cells"] + STORED["train_e7_cells"]
    with open_npz(lm_weights[0]) as z:
        assert {z[k].dtype for k in z.files} == {np.dtype("float16")}
    # the costs tables count stored jobs from their records, with the CPU they ran on
    out = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "costs"], cwd=quick_run,
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"train_grid_cells\s+11\s", out), out


def test_a_fresh_clone_with_only_the_store_computes_no_stored_job(clone_with_store, quick_run):
    plan = store_plan(clone_with_store)
    assert {rule: counts["fetched"] for rule, counts in plan.items()} == STORED
    assert not any(counts["computed"] for counts in plan.values()), plan
    snakemake(clone_with_store, *QUICK)
    ours, theirs = tables(clone_with_store), tables(quick_run)
    assert ours.keys() == theirs.keys() and len(ours) >= 17
    for name in ours:
        pd.testing.assert_frame_equal(ours[name], theirs[name], check_exact=True, obj=name)


def test_a_corrupt_entry_is_set_aside_and_recomputed(quick_run, tmp_path):
    work = copy_workflow(tmp_path / "w")
    shutil.copytree(quick_run / "results/store", work / "results/store")
    key, files = next((k, fs) for k, fs in sorted(entries(work / "results/store").items())
                      if any(f.name.endswith("_measures.parquet") for f in fs))
    target = next(f for f in files if f.name.endswith("_measures.parquet"))
    raw = bytearray(target.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    target.write_bytes(bytes(raw))
    before = files_as_they_are(work)
    # a plan of the run (a dry run) counts the job as computed, and changes no file
    # (Snakemake's own .snakemake/ bookkeeping aside)
    plan = store_plan(work)
    computed = {rule: c["computed"] for rule, c in plan.items() if c["computed"]}
    assert computed in ({"measure_grid_cells": 1}, {"measure_fixed_cells": 1}), computed
    assert files_as_they_are(work) == before
    out = snakemake(work, *QUICK)
    assert re.search(rf"store: entry \S*results/store/{key} set aside to "
                     r"results/quarantine/store: \S+ has sha256 .*; \w+ computed",
                     out.stderr + out.stdout), out.stderr[-2000:]
    assert (work / "results/quarantine/store" / target.name).exists()
    assert Store(work / "results/store").check() == []
    ours, theirs = tables(work), tables(quick_run)
    for name in ours:  # recomputed on the same machine: the same numbers
        pd.testing.assert_frame_equal(ours[name], theirs[name], check_exact=True, obj=name)


def refetch(workdir: Path, key: str) -> None:
    """Fetch entry ``key`` again into the run in ``workdir``: the outputs of the job it served
    (its note) removed and rebuilt, which fetches them."""
    note = next(n for p in sorted((workdir / "results/jobs").glob("*.json"))
                if (n := json.loads(p.read_text())).get("entry") == key)
    for path in note["outputs"].values():
        (workdir / path).unlink(missing_ok=True)
    snakemake(workdir, *QUICK, *note["outputs"].values())


def new_entries(root, before) -> list[dict]:
    """The records of the entries in store ``root`` that are not in ``before``."""
    return [json.loads(f.read_text()) for key, files in entries(root).items()
            if key not in before for f in files if f.name.endswith("_record.json")]


def test_comments_docstrings_and_layout_re_key_no_entry(clone_with_store):
    """Early cutoff at the source: modules every stored job imports (atomic, cli) and the one
    every teacher is drawn with, edited in everything but their code."""
    edits = {
        "src/entropic_bound/data/teachers.py": lambda t: t.replace('"""', '"""Edited. ', 1)
        + "\n# a comment\n",
        "src/entropic_bound/plumbing/atomic.py": lambda t: t.replace('"""', '"""Edited. ', 1)
        + "\n# a comment\n",
        "src/entropic_bound/cli.py": lambda t: t.replace('"""', '"""Edited. ', 1)
        .replace("import argparse", "import argparse  # the parser", 1) + "\n\n\n",
    }
    originals = {m: (clone_with_store / m).read_text() for m in edits}
    try:
        for module, edit in edits.items():
            assert edit(originals[module]) != originals[module]
            (clone_with_store / module).write_text(edit(originals[module]))
        plan = store_plan(clone_with_store, "--forceall")
    finally:
        for module, text in originals.items():
            (clone_with_store / module).write_text(text)
    assert {rule: c["fetched"] for rule, c in plan.items()} == STORED
    assert not any(c["computed"] for c in plan.values()), plan


@pytest.mark.parametrize("module, missed", [
    ("src/entropic_bound/training/lm.py", {"train_lm_cells": 24, "train_e7_cells": 12}),
    ("src/entropic_bound/measures/grid.py", {"measure_grid_cells": 11}),
    ("src/entropic_bound/measures/heads.py", {"train_lm_cells": 24, "train_e7_cells": 12}),
    ("src/entropic_bound/commands/estimate_e4.py", {"estimate_e4_data": 22}),
    ("report/templates/report.md.j2", {}),
])
def test_an_edit_misses_exactly_the_entries_of_the_rules_that_run_it(clone_with_store, module,
                                                                       missed):
    """docs/design.md's examples against the store: E6's training code misses E6's training
    entries and nothing of E1-E5; a measure edit misses the measures, not training; one
    command's module only its own rule; a template edit misses nothing."""
    path = clone_with_store / module
    original = path.read_text()
    try:
        path.write_text(original + ("\n_EDITED = True\n" if module.endswith(".py")
                                    else "\n{# an edit #}\n"))
        plan = store_plan(clone_with_store, "--forceall")
    finally:
        path.write_text(original)
    computed = {rule: c["computed"] for rule, c in plan.items() if c["computed"]}
    assert computed == missed
    fetched = {rule: c["fetched"] for rule, c in plan.items() if c["fetched"]}
    assert fetched == {rule: n for rule, n in STORED.items() if rule not in missed}


def test_store_rekeys_prices_an_edit_per_experiment(clone_with_store):
    """`entropic-bound store rekeys`, the command contributors run before a commit: nothing
    re-keyed on the clean tree; an edit to E6's training code re-keys E6's 24 training entries
    and E7's 12 (the same command), priced in job-hours from their records, and nothing of
    E1-E5."""

    def rekeys(*targets: str) -> dict[str, list[str]]:
        proc = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "store", "rekeys",
                               "--store", "results/store", "--", *QUICK, *targets],
                              cwd=clone_with_store, capture_output=True, text=True, check=True)
        return {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines()}

    total = len(entries(clone_with_store / "results/store"))
    clean = rekeys()
    assert clean["all"][3] == "0" and clean["0"][:2] == ["of", str(total)]
    assert not any(words[:3] == ["entries", "of", "experiments"] for words in clean.values())
    # a DAG of Table 1 alone: the other experiments' entries are outside it, not re-keyed
    table1 = rekeys("results/tables/table1.parquet")
    fetched = int(table1["all"][0])
    assert 0 < fetched < total and table1["0"][:2] == ["of", str(total)]
    assert table1[str(total - fetched)][:3] == ["entries", "of", "experiments"]
    path = clone_with_store / "src/entropic_bound/training/lm.py"
    original = path.read_text()
    try:
        path.write_text(original + "\n_EDITED = True\n")
        edited = rekeys()
    finally:
        path.write_text(original)
    assert edited["e6"][3] == "24" and float(edited["e6"][4]) > 0
    assert edited["e7"][3] == "12" and float(edited["e7"][4]) > 0
    assert all(edited[e][3] == "0" for e in ("e1", "e2", "e3", "e4", "e5"))
    assert edited["36"][0] == "of"


def test_the_audit_recomputes_entries_and_fails_on_a_planted_wrong_one(clone_with_store):
    """After the fresh clone's run (its results/ links into the store): a seeded draw agrees
    bit for bit (same machine); an entry whose stored number was changed, and resealed so
    that only a recomputation can tell, fails."""
    from entropic_bound.plumbing.atomic import read_parquet, write_parquet

    if not (clone_with_store / "results/tables/claims.parquet").exists():
        snakemake(clone_with_store, *QUICK)
    audit = [sys.executable, "-m", "entropic_bound.cli", "audit"]
    ok = subprocess.run([*audit, "3", "--seed", "7"], cwd=clone_with_store,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "drawn with seed 7" in ok.stderr and ok.stderr.count("identical; margin 0,") == 3
    root = clone_with_store / "results/store"
    key, files = next((k, fs) for k, fs in sorted(entries(root).items())
                      if any(f.name.endswith("_measures.parquet") for f in fs))
    target = next(f for f in files if f.name.endswith("_measures.parquet"))
    frame = read_parquet(target)
    column = next(c for c in frame.columns if frame[c].dtype.kind == "f"
                  and np.isfinite(frame.loc[0, c]) and not c.endswith("seconds"))
    frame.loc[0, column] = frame.loc[0, column] * 1.001 + 1e-3
    original = target.read_bytes()
    try:
        write_parquet(target, frame)
        seal_entry(root, key)
        refetch(clone_with_store, key)  # this run now holds the planted entry
        bad = subprocess.run([*audit, "1", "--keys", key[:12]], cwd=clone_with_store,
                             capture_output=True, text=True)
    finally:
        target.write_bytes(original)
        seal_entry(root, key)
        refetch(clone_with_store, key)
    assert bad.returncode == 1 and "DIFFERS" in bad.stderr, bad.stderr
    assert f".parquet:{column}" in bad.stderr


def test_a_changed_corpus_text_re_keys_that_corpus_and_no_other(run_copy):
    """shakespeare's text changes (with its provenance, as a refetch writes both). Past
    e6.max_chars the tokens stay byte-identical: the rerun tokenizer's output keys every LM
    cell as before (early cutoff), and nothing new is stored. Within them the tokens change,
    and with them the key of each of its LM cells; no other corpus's."""
    corpus = run_copy / "results/corpora/shakespeare"
    original = (corpus / "text.txt").read_text()
    root = run_copy / "results/store"
    for text, cells in ((original + "\nEXEUNT, past the characters kept.\n", 0),
                        ("A new first line of text.\n" + original, 4 + 2)):
        provenance = json.loads((corpus / "provenance.json").read_text())
        provenance["text_sha256"] = hashlib.sha256(text.encode()).hexdigest()
        (corpus / "text.txt").write_text(text)
        (corpus / "provenance.json").write_text(json.dumps(provenance))
        # a dry run cannot know the new tokens yet: their cells wait for the tokenizer
        plan = store_plan(run_copy)
        assert {rule: dict(c) for rule, c in plan.items()} == {
            "train_lm_cells": {"computed": 4}, "train_e7_cells": {"computed": 2}}
        before = set(entries(root))
        out = snakemake(run_copy, *QUICK)
        made = new_entries(root, before)
        assert len(made) == cells, out.stdout[-2000:]
        assert all(r["argv"][1] == "train-lm" and '"corpus": "shakespeare"' in " ".join(r["argv"])
                   for r in made), [r["argv"][:4] for r in made]


def test_an_entry_under_another_jobs_key_is_refused_and_recomputed(clone_with_store, quick_run,
                                                                   tmp_path):
    """Two measure entries swapped and resealed, so that only their records can tell: each is
    refused in one line naming what its record writes, set aside, and recomputed."""
    work = copy_workflow(tmp_path / "w")
    shutil.copytree(clone_with_store / "results/store", work / "results/store")
    root = work / "results/store"
    a, b = [k for k, fs in sorted(entries(root).items())
            if any(f.name.endswith("_measures.parquet") for f in fs)][:2]
    for old, new in ((a, "swap"), (b, a), ("swap", b)):
        for f in root.glob(f"{old}[._]*"):
            f.rename(root / f.name.replace(old, new, 1))
    for key in (a, b):
        (root / f"{key}.sha256").unlink()
        seal_entry(root, key)
    out = snakemake(work, *QUICK)
    refused = re.findall(r"store: entry \S+/(\w{64}) set aside to \S+: its record ran "
                         r"another command", out.stdout + out.stderr)
    assert sorted(set(refused)) == sorted([a, b])  # Snakemake echoes its log to both streams
    assert Store(root).check() == []
    assert len(list((work / "results/quarantine/store").glob("*.sha256"))) == 2
    ours, theirs = tables(work), tables(quick_run)
    # the audit draws within a budget of recorded cost, and the two recomputed entries
    # recorded their own: it may draw others, and what it draws must agree
    assert ours.pop("audit.parquet")["ok"].all() and theirs.pop("audit.parquet")["ok"].all()
    for name in ours:
        pd.testing.assert_frame_equal(ours[name], theirs[name], check_exact=True, obj=name)


def test_two_runs_on_one_empty_store_at_once_lose_and_corrupt_nothing(quick_run, tmp_path):
    """Two clones, one store folder, one core each, started together: both finish, every
    entry is written whole and sealed, none twice (a run waits on the key another computes
    and then fetches it), and both build the same tables."""
    shared = tmp_path / "store"
    works = [copy_workflow(tmp_path / name) for name in ("a", "b")]
    for work in works:  # the download cache is not a rule output: no refetch
        shutil.copytree(quick_run / "results/corpora/downloads",
                        work / "results/corpora/downloads")
    # each run's output to a file: a pipe that is read only after the other run ends fills
    # up, blocks its writer while that holds a key's lock, and the other run waits forever
    written = [tmp_path / f"{work.name}.log" for work in works]
    with open(written[0], "w") as out_a, open(written[1], "w") as out_b:
        runs = [subprocess.Popen([sys.executable, "-m", "snakemake", *QUICK, "--cores", "1",
                                  "--config", f"store={shared}"], cwd=work,
                                 stdout=out, stderr=subprocess.STDOUT)
                for work, out in zip(works, (out_a, out_b))]
        for run in runs:
            run.wait(timeout=1800)
    logs = [path.read_text() for path in written]
    assert [run.returncode for run in runs] == [0, 0], [log[-3000:] for log in logs]
    stored = entries(shared)
    assert len(stored) == sum(STORED.values())
    assert Store(shared).check() == [] and Store(shared).leftovers() == []
    assert all(Store(shared).is_sealed(key) for key in stored)
    computed = sum(int(n) for log in logs
                   for n in re.findall(r"store: \d+ stored jobs fetched, (\d+) computed", log))
    assert computed == len(stored)  # each entry computed once: the other run fetched it
    first, second = (tables(work) for work in works)
    assert first.keys() == second.keys() and len(first) >= 17
    for name in first:
        pd.testing.assert_frame_equal(first[name], second[name], check_exact=True, obj=name)


# the stored rules that read teacher arrays, and their jobs in the quick DAG
BELOW_TEACHERS = {rule: n for rule, n in STORED.items()
                  if rule not in ("fetch_corpus", "train_lm_cells", "train_e7_cells")}


def test_a_change_to_the_teachers_draw_re_keys_what_trains_on_them(clone_with_store):
    """The teacher arrays enter the keys below them by their job's key: a change to the code
    that changes the draw (here the streams' key) re-keys every E1-E5 training, measure and
    estimator job, the training and estimator keys known before any array is made; E6 is
    fetched."""
    path = clone_with_store / "src/entropic_bound/data/teachers.py"
    original = path.read_text()
    edited = original.replace("key = [spec.seed, spec.T", "key = [spec.seed + 1, spec.T")
    assert edited != original
    try:
        path.write_text(edited)
        plan = store_plan(clone_with_store, "--forceall")
        found = store_plans.lookups([*QUICK], clone_with_store)
    finally:
        path.write_text(original)
    assert {rule: c["computed"] for rule, c in plan.items() if c["computed"]} == BELOW_TEACHERS
    assert {rule: c["fetched"] for rule, c in plan.items() if c["fetched"]} == {
        "fetch_corpus": 6, "train_lm_cells": 24, "train_e7_cells": 12}
    # the jobs that read an array know their keys before it is drawn; a measure waits for the
    # new weights of its training
    waiting = {r["rule"] for r in found if r["key"] is None}
    assert waiting == {"measure_grid_cells", "measure_fixed_cells"}, waiting


def test_the_paper_stores_keys_are_found_without_any_data(tmp_path):
    """What must not depend on the machine: a dry run of the paper's DAG in a copy with no
    results/ computes every stored job's key (none waits for a teacher array) and finds every
    entry of the committed store under it. The keys read no array, so any CPU reproduces them;
    keyed by the arrays' bytes, a CPU whose BLAS rounds otherwise found none of E1-E5's. Every
    stored entry is some job's: the paper's 443 and E7's 54."""
    from conftest import ROOT

    work = copy_workflow(tmp_path / "w")
    # the committed store, read where it is (a store folder that is a link is refused)
    found = store_plans.lookups(["--config", f"store={ROOT / 'store'}"], work)
    assert len([r for r in found if r["rule"] != "train_e7_cells"]) == 443
    assert len([r for r in found if r["rule"] == "train_e7_cells"]) == 54
    assert [r["output"] for r in found if r["key"] is None] == []
    assert [r["output"] for r in found if r["entry"] is None] == []
    assert {r["entry"] for r in found if r["entry"]} == set(entries(ROOT / "store"))
    assert not (work / "results/data").exists()


def test_a_run_says_in_one_line_which_fetched_entries_other_software_made(quick_run, tmp_path):
    """Two entries whose records name another numpy (faked, and resealed): the run fetches
    them and says so in one line, with how many and which versions."""
    work = copy_workflow(tmp_path / "w")
    shutil.copytree(quick_run / "results/store", work / "results/store")
    root = work / "results/store"
    records = sorted(f for files in entries(root).values() for f in files
                     if f.name.endswith("_record.json"))[:2]
    for path in records:
        record = json.loads(path.read_text())
        record["software"]["numpy"] = "1.26.0"
        path.write_text(json.dumps(record))
        seal_entry(root, path.name[:64])
    out = snakemake(work, *QUICK)
    lines = [line for line in (out.stdout + out.stderr).splitlines()
             if "computed with other software than this run's" in line]
    assert lines, out.stderr[-2000:]
    assert re.search(rf"^store: 2 of the {sum(STORED.values())} entries fetched were "
                     r"computed with other software than this run's \(torch \S+, numpy \S+, "
                     r"scipy \S+\): 2 with numpy 1\.26\.0\.", lines[0]), lines[0]


def test_a_cluster_job_step_computes_the_keys_the_main_process_does(run_copy):
    """A SLURM job step runs a DAG of its own jobs' rules (Snakemake's allowed rules), where a
    teacher array drawn by the main process has no producer: its keys must still read the
    array by its job's key, or the entries it stores are found by no other run."""
    cells = sorted(str(p.relative_to(run_copy))
                   for p in (run_copy / "results/cells").rglob("*.npz"))[:3]
    measures = sorted(str(p.relative_to(run_copy))
                      for p in (run_copy / "results/measures").rglob("*.parquet")
                      if "/e6/" not in str(p))[:3]
    assert cells and measures
    whole = {r["output"]: (r["key"], r["entry"])
             for r in store_plans.lookups([*QUICK, *cells, *measures], run_copy)}
    step = {r["output"]: (r["key"], r["entry"]) for r in store_plans.lookups(
        [*QUICK, *cells, *measures, "--allowed-rules", "train_grid_cells", "train_fixed_cells",
         "measure_grid_cells", "measure_fixed_cells"], run_copy)}
    assert step == whole and all(entry for _, entry in whole.values()), (step, whole)


def test_a_training_entry_is_audited_across_kernels_by_what_the_paper_reads(clone_with_store):
    """Under other OpenBLAS kernels (another kernel class than the entries', whatever this CPU
    is) a recomputed E3 training entry agrees within the machine tolerance; the same entry
    with a factor changed by 5 %, with another seed's cell under its key, or with a changed
    loss (each resealed, so that only a recomputation can tell) differs."""
    from entropic_bound.plumbing.atomic import open_npz, read_parquet, write_parquet

    if not (clone_with_store / "results/tables/claims.parquet").exists():
        snakemake(clone_with_store, *QUICK)
    root = clone_with_store / "results/store"

    def train_grid(cell: str) -> str:
        return next(k for k, fs in entries(root).items() for f in fs
                    if f.name.endswith("_record.json") and (argv := json.loads(
                        f.read_text())["argv"])[1] == "train-grid"
                    and f"results/cells/{cell}.npz" in argv)

    key = train_grid("e3/linear_qk/sharp/r2/s0")
    other_seed = train_grid("e3/linear_qk/sharp/r2/s1")
    weights, metrics = root / f"{key}_weights.npz", root / f"{key}_metrics.parquet"
    originals = {p: p.read_bytes() for p in (weights, metrics, root / f"{key}.sha256")}

    def audit() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "entropic_bound.cli", "audit", "1",
                               "--keys", key[:12]],
                              cwd=clone_with_store, capture_output=True, text=True,
                              env={**os.environ, "OPENBLAS_CORETYPE": "Sandybridge"})

    def replace(path, write) -> None:
        path.unlink()
        write(path)
        seal_entry(root, key)
        refetch(clone_with_store, key)  # this run now holds the planted entry

    def scaled_factor(path) -> None:
        with open_npz(originals_file(weights)) as z:
            arrays = {n: np.asarray(z[n]) for n in z.files}
        name = next(n for n in arrays if n.startswith("recovery") and n.endswith("_WQ"))
        arrays[name] = arrays[name] * np.float32(1.05)
        np.savez(path, **arrays)

    def originals_file(path):
        copy = clone_with_store / f"original{path.suffix}"
        copy.write_bytes(originals[path])
        return copy

    try:
        agreed = audit()
        assert agreed.returncode == 0, agreed.stderr[-2000:]
        assert "agrees within the machine tolerance" in agreed.stderr \
            or "identical" in agreed.stderr, agreed.stderr[-2000:]
        plants = {
            "factor": (weights, scaled_factor),
            "seed": (weights, lambda p: p.write_bytes((root / f"{other_seed}_weights.npz")
                                                      .read_bytes())),
            "loss": (metrics, lambda p: write_parquet(p, read_parquet(originals_file(metrics))
                                                      .assign(loss=lambda f: f["loss"]
                                                              + f["noise_floor"]))),
        }
        for name, (path, write) in plants.items():
            replace(path, write)
            planted = audit()
            assert planted.returncode == 1 and "DIFFERS" in planted.stderr, \
                (name, planted.stderr[-2000:])
            path.unlink()
            path.write_bytes(originals[path])
    finally:
        for path, raw in originals.items():
            path.unlink(missing_ok=True)
            path.write_bytes(raw)
        refetch(clone_with_store, key)
    assert Store(root).check() == []


def audit_command(workdir: Path) -> list[str]:
    """The run's audit command line as the workflow gives it (its evidence and settings),
    from a dry run, without its draw, output and log."""
    out = snakemake(workdir, *QUICK, "-n", "-p", "--forcerun", "audit_store",
                    "results/tables/audit.parquet").stdout
    line = next(line for line in out.splitlines() if "entropic-bound audit" in line)
    argv = shlex.split(line[line.index("entropic-bound audit"):].split(" > ", 1)[0])
    drop = {"--out": 1, "--exit-zero": 0, "--per-experiment": 0, "--seed": 1,
            "--budget-seconds": 1}
    kept, i = [], 3  # past "entropic-bound audit <count>"
    while i < len(argv):
        if argv[i] in drop:
            i += 1 + drop[argv[i]]
            continue
        kept.append(argv[i])
        i += 1
    return [sys.executable, "-m", "entropic_bound.cli", "audit", "1", *kept]


def test_the_verdict_check_keeps_every_verdict_and_reports_a_substitution_that_moves_one(
        clone_with_store):
    """The claims judged with a recomputed training entry in place of the stored one (its
    measure rerun on it) keep every verdict; a stored measure that fails achievability at one
    r* where the recomputed one passes (planted, resealed) moves a claim's verdict, and the
    audit reports it and fails."""
    from entropic_bound.plumbing.atomic import read_parquet, write_parquet

    if not (clone_with_store / "results/tables/claims.parquet").exists():
        snakemake(clone_with_store, *QUICK)
    root = clone_with_store / "results/store"
    base = audit_command(clone_with_store)

    def entry(command: str, cell: str) -> str:
        return next(k for k, fs in entries(root).items() for f in fs
                    if f.name.endswith("_record.json") and (argv := json.loads(
                        f.read_text())["argv"])[1] == command and cell in " ".join(argv))

    training = entry("train-grid", "results/cells/e3/linear_qk/sharp/r2/s0.npz")
    kept = subprocess.run([*base, "--keys", training[:12]], cwd=clone_with_store,
                          capture_output=True, text=True)
    assert kept.returncode == 0, kept.stderr[-3000:]
    assert re.search(r"verdict check: (\d+) of \1 verdicts held", kept.stderr), kept.stderr[-3000:]
    # achievability at r* = 2 of the linear teacher fails in seed 0's stored measure
    table3 = read_parquet(clone_with_store / "results/tables/table3.parquet")
    assert table3.set_index(["teacher", "r_star"]).loc[("linear_qk", 2), "achievability"]
    measure = entry("measure-grid", "results/measures/e3/linear_qk/sharp/r2/s0.parquet")
    path = root / f"{measure}_measures.parquet"
    original = path.read_bytes()
    frame = read_parquet(path)
    failing = frame.assign(excess_converged=np.where(
        (frame["role"] == "sweep") & (frame["r"] >= 2), 100 * frame["noise_floor"],
        frame["excess_converged"]))
    try:
        path.unlink()
        write_parquet(path, failing)
        seal_entry(root, measure)
        refetch(clone_with_store, measure)  # this run now holds the planted entry
        moved = subprocess.run([*base, "--keys", measure[:12]], cwd=clone_with_store,
                               capture_output=True, text=True)
    finally:
        path.unlink(missing_ok=True)
        path.write_bytes(original)
        seal_entry(root, measure)
        refetch(clone_with_store, measure)
    assert moved.returncode == 1, moved.stderr[-3000:]
    assert re.search(r"verdict check: MOVED \d+ of \d+: [^\n]*E3\.achievability\.linear_qk: "
                     r"[\w ]+ -> ", moved.stderr), moved.stderr[-3000:]
    assert Store(root).check() == []
