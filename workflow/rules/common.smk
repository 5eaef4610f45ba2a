import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.settings.types import DeploymentMethod
from snakemake.utils import validate

from entropic_bound.store import closure_digest, command_sources
from entropic_bound.plumbing.settings import (
    check_profile_overlay,
    fixed_operators,
    typed_overrides,
)
from entropic_bound.data.corpus_lock import corpus_pin as lock_entry_of_corpus
from entropic_bound.data.meaningful import check_meaningful
from entropic_bound.data.teachers import KINDS, OPERATORS, SPECTRA
from entropic_bound.store import render_manifest, store_unusable, tracked
from entropic_bound.plumbing.device import resolve_device
from entropic_bound.plumbing.experiments import EXPERIMENTS, of_machinery

# Nested --config values arrive as strings ('300'); give them their types, then fail before
# any job runs, naming the offending key (validation fills schema defaults).
config.update(typed_overrides(config))
check_profile_overlay(config)
validate(config, schema="../../src/entropic_bound/config.schema.yaml")

# The device, resolved once, by the main process (auto -> cuda or cpu), and handed to the job
# steps of a cluster run (envvars), whose nodes may see another device: the rules' `gpu`
# resource, the jobs' params and so their store keys name the device the main process planned.
DEVICE_VARIABLE = "ENTROPIC_BOUND_DEVICE"
if workflow.is_main_process or DEVICE_VARIABLE not in os.environ:
    os.environ[DEVICE_VARIABLE] = resolve_device(config["device"])
DEVICE = os.environ[DEVICE_VARIABLE]


# `--sdm conda` without conda: Snakemake's own error names `conda info`; this names what to do.
if DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method and not shutil.which(
    workflow.deployment_settings.conda_frontend
):
    raise WorkflowError(
        f"--sdm conda: no {workflow.deployment_settings.conda_frontend} on the PATH; install "
        "Miniforge (https://conda-forge.org/download) or run without --sdm conda after "
        "`pip install -r requirements.lock -e .` (README)"
    )

# The checkout, for the conda environment's post-deploy script (envs/entropic-bound.yaml), which
# Snakemake runs from its own copy under .snakemake/conda/.
os.environ["ENTROPIC_BOUND_ROOT"] = workflow.basedir


envvars:
    DEVICE_VARIABLE,
    "ENTROPIC_BOUND_ROOT",


# The store (entropic_bound.store): a stored rule writes its command once, in its params,
# `**stored(COMMAND, ...)`, and runs `shell: STORED`: `entropic-bound-store MANIFEST
# LOG` (the log, logs/<rule>/..., names the rule), which renders the command from the job's manifest (the workflow's own text:
# command, params, inputs, outputs), computes the job's key from it, fetches its entry
# (checked against its seal, copied) or runs the command and stores what it made. The teacher
# arrays enter the keys below them by their job's key, not their bytes: their bytes depend on
# the CPU's BLAS kernels, and the keys of the jobs that read them must be the same on every
# machine (docs/design.md, "The store key").
STORE = os.path.abspath(config["store"])
if store_unusable(STORE):
    raise WorkflowError(f"config store={config['store']}: {store_unusable(STORE)}")
# results/ and logs/ are ignored by git: a file git tracks there (a link in results/'s place,
# an output force-added) came with a pull and would stand for a run's own output
if committed := tracked("results", "logs"):
    raise WorkflowError(
        f"git tracks {len(committed)} file(s) under results/ or logs/ ({committed[0]!r}...): "
        "a pull wrote them, and a run would read them as its own; `git rm --cached` them"
    )
STORED = "{params.job} {log} > {log} 2>&1"
COMMAND = re.compile(r"entropic-bound ([a-z0-9-]+) ")  # the library command a shell runs


def stored(command, keep="entry", keyed=None, expect=None, code=True, given=None, **params):
    """A stored rule's params, `**stored(...)`: `command` as written (its fields {params.NAME[:q]},
    {input.NAME}, {output.NAME}, {threads}), run through the store by `shell: STORED`.
    `params`: the science settings the command reads (values, or functions of the wildcards),
    each in the key; `given`: settings the command reads that a keyed input already fixes
    (rendered, not keyed: a key holds each value once); `keyed` maps an input name to a
    function of the wildcards giving the manifest of the job that made it (an input keyed by
    its job); `expect` is a function of the wildcards giving the sha256 that outputs must have
    (a fetched entry whose output differs is set aside); `keep` is what the store keeps
    (entry, realisation or note); `code=False`: the job's code is no input (a corpus text,
    pinned by its sha256). The store is named as the config names it (relative to the
    workflow's directory, where every job runs), so moving a checkout reruns no job."""
    library = COMMAND.match(f"{command} ").group(1) if code else None
    sources = {"code": lib(library)} if code else {}
    digest = code_digest(library) if code else None

    def value(v, wildcards):
        return v(wildcards) if callable(v) else v

    # Snakemake's params trigger compares only the params that are functions of the wildcards
    # alone ("non-derived"): `settings` holds all the job's settings and its code's digest, so
    # a changed setting or code reruns the job; `job`, which needs the input, output and
    # threads, holds the manifest
    def settings(wildcards):
        return as_json(
            {
                "command": command,
                "params": {n: value(v, wildcards) for n, v in params.items()},
                "given": {n: value(v, wildcards) for n, v in (given or {}).items()},
                "keyed": {n: j(wildcards) for n, j in (keyed or {}).items()},
                "expect": expect(wildcards) if expect else None,
                "code": digest,
            }
        )

    def job(wildcards, input, output, threads):
        values = {n: value(v, wildcards) for n, v in params.items()}
        if "{threads}" in command:
            values["threads"] = threads
        manifest = render_manifest(
            None,
            keep,
            config["store"],
            command,
            values,
            {**{n: [v] if isinstance(v, str) else list(v) for n, v in input.items()}, **sources},
            dict(output.items()),
            {n: j(wildcards) for n, j in (keyed or {}).items()},
            expect(wildcards) if expect else None,
            {n: value(v, wildcards) for n, v in (given or {}).items()},
            digest,
        )
        return f"entropic-bound-store {shlex.quote(manifest)}"

    return {"job": job, "settings": settings}


# What the rules file of an experiment with rules of its own (docs/contributing.md) registers
# for the report's jobs: its tables (parquet: the claims, the audit and the report read them), the anchors of its
# figures (report/out/<anchor>.png, captioned by workflow/report/figure_<anchor>.rst) and its
# per-cell evidence (a name -> files; the experiment's claims module's `evidence` builds its
# tables from them for the firmness and the audit's verdict check).
EXPERIMENT_TABLES, EXPERIMENT_FIGURES, EXPERIMENT_EVIDENCE = [], [], {}


def tables(caption, category="Tables", **paths):
    """A table rule's named outputs, `**tables(CAPTION, NAME=PATH.parquet, ...)`: each parquet
    table and, as `NAME_csv`, the CSV view its command writes beside it (commands/_tables.py),
    marked for Snakemake's report, whose viewer shows CSV as a table and parquet as unreadable
    text."""
    outputs = {}
    for name, path in paths.items():
        outputs[name] = path
        view = path.removesuffix(".parquet") + ".csv"
        outputs[f"{name}_csv"] = report(view, category=category, caption=caption)
    return outputs


# `snakemake --report FILE` reports on the jobs of the default target and stops at the first
# file marked for the report that does not exist. After a partial run (Table 1 only), `all`
# then asks for what was built, and the report shows that. Snakemake tells a Snakefile nothing
# of the mode; its command line does (--report-after-run reports after building everything).
REPORT_ONLY = (
    any(arg == "--report" or arg.startswith("--report=") for arg in sys.argv)
    and "--report-after-run" not in sys.argv
)


def built(targets):
    """The targets that exist with their CSV views (a table of a run before the views were
    written has none: it is left out, not an error); one line names what the report lacks."""
    ready = [
        t
        for t in targets
        if os.path.exists(t)
        and (not t.endswith(".parquet") or os.path.exists(t.removesuffix(".parquet") + ".csv"))
    ]
    if len(ready) < len(targets):
        print(
            f"snakemake --report: {len(ready)} of the {len(targets)} targets of a whole run are "
            "built; the report shows those (build the others first for a whole report)",
            file=sys.stderr,
        )
    return ready


def parquets(outputs):
    """The parquet tables among a rule's outputs (not their CSV views)."""
    return [path for path in outputs if path.endswith(".parquet")]


MAKE_DATA = "entropic-bound make-data --params {params.spec:q} --out {output} > {log} 2>&1"


def teacher_job(spec):
    """The manifest of the make-data job of a dataset whose spec is `spec(wildcards)`: a stored
    job's teacher array enters its key by this job's key."""
    code = lib("make-data")  # once per rule, not once per job: deriving it takes milliseconds
    return lambda wc: {"command": MAKE_DATA, "params": {"spec": spec(wc)}, "inputs": {"code": code}}


# Cheap rules run in the main process under any executor, never submitted: each takes seconds
# (the audit its budget, audit.budget_seconds), less than a cluster's queue round-trip. The
# teacher arrays, the corpora's texts, tokens and data side (corpus_stats: 2 s a corpus), the
# per-head tables of the LM cells (measure_lm_cells assembles what training measured), the
# tables, the claims, the audit, the report. With the stored jobs fetched by `entropic-bound
# cluster`'s local pass, a cluster run with a full store submits nothing.
localrules:
    make_grid_data,
    make_fixed_data,
    fetch_corpus,
    tokenize_corpus,
    corpus_stats,
    measure_lm_cells,
    aggregate_grid,
    aggregate_table1,
    aggregate_table2,
    aggregate_table4,
    aggregate_table6,
    evaluate_claims,
    audit_store,
    render_report,
    snapshot,


# Experiments of each machinery, by paper table: a new grid (or fixed-operator) experiment is a
# line here, a config section and its schema entry (`eN: *grid`).
# the registered experiments of each machinery (entropic_bound.plumbing.experiments)
GRID_TABLES = {e.tables[0]: e.name for e in of_machinery("grid")}  # paper table -> experiment
FIXED_EXPERIMENTS = [e.name for e in of_machinery("fixed")]
# E4's robustness settings: dataset grids that are generated and estimated, never trained;
# their datasets live beside the experiments' as results/data/e4_<name>/.
E4_SETTINGS = {f"e4_{name}": grid for name, grid in config["e4"]["settings"].items()}
E4_GRIDS = ["e3", *E4_SETTINGS]  # where Table 4's estimators run: the paper's grid first


def dataset_grid(exp):
    """The config section that defines the datasets of a grid experiment or E4 setting."""
    return E4_SETTINGS[exp] if exp in E4_SETTINGS else config[exp]


# Settings the schema accepts but that make an experiment meaningless fail here, naming the key.
check_meaningful(
    config,
    {
        (exp if exp in config else f"e4.settings.{exp[3:]}"): dataset_grid(exp)
        for exp in [*GRID_TABLES.values(), *E4_SETTINGS]
    },
    FIXED_EXPERIMENTS,
)


wildcard_constraints:
    exp="|".join([*GRID_TABLES.values(), *E4_SETTINGS]),
    fexp="|".join(FIXED_EXPERIMENTS),
    operator="|".join(OPERATORS),
    table="|".join(GRID_TABLES),
    teacher="|".join(k for k in KINDS if k.endswith("_qk")),
    spectrum="|".join(SPECTRA),
    r_star=r"\d+",
    seed=r"\d+",
    corpus=r"[A-Za-z0-9_]+",
    d_model=r"\d+",


def lib(command):
    """Library sources that `entropic-bound <command>` executes (its import closure, derived
    from the code by the store's command_sources): a stored job's `code` input, read
    by its store key."""
    return command_sources(command)


def code_digest(command):
    """The digest of the bytes of lib(command), the `code` param of each job that runs
    `entropic-bound <command>`. Snakemake does not track imported modules; its params rerun-trigger
    compares this, so an edit reruns exactly the rules that execute the edited file."""
    return closure_digest(command)


def as_json(obj):
    """A params value compared by repr (stable key order) and passed to the CLI as JSON."""
    return json.dumps(obj, sort_keys=True)


def grid_spec(wc):
    """The spec of a grid dataset: make_grid_data writes it into the file, and every job that
    reads the file checks that it holds this one (a copied file fails naming it)."""
    return as_json(
        {
            "kind": wc.teacher,
            "spectrum": wc.spectrum,
            "r_star": int(wc.r_star),
            "seed": int(wc.seed),
            **{k: dataset_grid(wc.exp)[k] for k in ("T", "d", "n", "sigma")},
        }
    )


def fixed_spec(wc, exp=None):
    """The spec of a fixed-operator dataset of experiment `exp` (default: the fexp wildcard),
    as grid_spec."""
    exp = exp or wc.fexp
    return as_json(
        {
            "kind": "fixed_operator",
            "spectrum": "sharp",
            "seed": int(wc.seed),
            "operator": wc.operator,
            **{k: config[exp][k] for k in ("T", "d", "r_star", "n", "sigma")},
        }
    )


def grid_datasets(exp, pattern, seeds=None):
    c = dataset_grid(exp)
    return expand(
        pattern,
        exp=exp,
        teacher=c["teachers"],
        spectrum=c["spectra"],
        r_star=sorted(c["r_stars"]),
        seed=sorted(seeds or c["seeds"]),
    )


def e4_datasets(pattern):
    """Every dataset Table 4's estimators run on: the E3 grid (at e4.seeds when set) and each
    robustness setting."""
    return [
        path
        for exp in E4_GRIDS
        for path in grid_datasets(exp, pattern, config["e4"]["seeds"] if exp == "e3" else None)
    ]


def fixed_datasets(exp, pattern):
    """Every dataset of a fixed-operator experiment: the paper's operator, then the variants."""
    c = config[exp]
    return expand(pattern, fexp=exp, operator=fixed_operators(c), seed=sorted(c["seeds"]))


def e6_cells(pattern):
    c = config["e6"]
    return expand(
        pattern, corpus=sorted(c["corpora"]), d_model=sorted(c["d_models"]), seed=sorted(c["seeds"])
    )


def e6_corpora(pattern):
    return expand(pattern, corpus=sorted(config["e6"]["corpora"]))


# Memory of a dataset's jobs: a base (the interpreter, numpy, torch where loaded) and a part
# proportional to the dataset, k bytes per byte of one sample's T x max(T, d) float64 block.
# Measured (entropic-bound's job records, T = 16, d = 32, n = 3,000 and 12,000): make-data
# 118 -> 334 MB, train-grid 553 -> 753 MB, estimate-e4 548 -> 725 MB, i.e. k = 5-6 above bases
# of 50-490 MB; declared with 2x headroom so that `--resources mem_mb=N` keeps a large config
# (n in the hundreds of thousands) within a machine. Measures read weights only (128 MB flat).
MEM_PER_SAMPLE_FACTOR = 12


def dataset_mem_mb(base_mb, section):
    """A rule's `mem_mb` from its dataset's size; `section(wc)` is the config of its dataset."""

    def mem_mb(wc):
        c = section(wc)
        block = c["T"] * max(c["T"], c["d"]) * 8
        return int(base_mb + MEM_PER_SAMPLE_FACTOR * c["n"] * block / 2**20)

    return mem_mb


def grid_section(wc):
    return dataset_grid(wc.exp)


def fixed_section(wc):
    return config[wc.fexp]


def corpus_pin(lock, corpus):
    """The lock's pin of a corpus's text (None before its first fetch). A param of the fetch
    job, so the text's sha256 is part of the key of every stored job downstream of it."""
    return lock_entry_of_corpus(Path(lock), corpus)


def pinned_text(lock, corpus):
    """{"text": sha256} of the corpus text the lock pins ({} before its first fetch)."""
    pin = corpus_pin(lock, corpus)
    return {"text": pin["text_sha256"]} if pin else {}


def record(rule, wildcard_path):
    """Where a stored job's record (its cost, machine and commit: plumbing.job_record) goes:
    beside the benchmark files of the other rules, so reporting.costs reads both alike."""
    return f"results/benchmarks/{rule}/{wildcard_path}.json"


def lm_params(wc, device):
    """One char-LM cell's settings, by the schema's sections: the architecture (`e6.model`; a
    `layers` wildcard, E7's, sets its depth), the training (`e6.train`) and the device it
    trains on."""
    c = config["e6"]
    depth = {"layers": int(wc.layers)} if "layers" in wc.keys() else {}
    return as_json(
        {
            "model": {**c["model"], **depth},
            "train": c["train"],
            "corpus": wc.corpus,
            "d_model": int(wc.d_model),
            "seed": int(wc.seed),
            "device": device,
        }
    )
