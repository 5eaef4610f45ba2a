"""Command-line entry points, one per workflow rule (``entropic-bound <command> ...``).

Argument parsing only: each command calls one library function. Structured settings arrive as
one JSON object (``--params``), which Snakemake renders from the validated config.
Heavy imports (torch) happen inside the commands, so ``--help`` and cheap commands stay fast.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path


def _setup(threads: int | None = None) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if threads:
        import torch

        torch.set_num_threads(threads)


def cmd_make_data(a: argparse.Namespace) -> None:
    from entropic_bound.data.datasets import write_dataset
    from entropic_bound.data.teachers import TeacherSpec

    write_dataset(TeacherSpec(**a.params), a.out)


def _dataset(a: argparse.Namespace) -> str:
    """``--data``, once checked to hold the dataset ``--spec`` names."""
    from entropic_bound.data.datasets import check_dataset

    check_dataset(a.data, a.spec)
    return a.data


def cmd_train_grid(a: argparse.Namespace) -> None:
    from entropic_bound.training.grid import GridTraining, train_dataset

    params = dict(a.params)
    device = params.pop("device")
    train_dataset(_dataset(a), a.weights, a.metrics, GridTraining(**params),
                  device=_device(device))


def cmd_measure_grid(a: argparse.Namespace) -> None:
    from entropic_bound.measures.grid import measure_dataset

    measure_dataset(_dataset(a), a.weights, a.metrics, a.out, tol=a.params["tol"])


def cmd_aggregate_grid(a: argparse.Namespace) -> None:
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.tables import concat_cells, grid_summary, grid_sweep

    cells = concat_cells(a.inputs)
    write_parquet(a.cells, cells)
    write_parquet(a.sweep, grid_sweep(cells))
    write_parquet(a.summary, grid_summary(cells))


def cmd_train_fixed(a: argparse.Namespace) -> None:
    from entropic_bound.training.fixed import FixedTraining, train_fixed

    params = dict(a.params)
    device = _device(params.pop("device"))
    for key in ("classes", "variants"):
        if key in params:
            params[key] = tuple(params[key])
    train_fixed(params.pop("experiment"), _dataset(a), a.weights, a.metrics,
                FixedTraining(**params), device=device)


def cmd_measure_fixed(a: argparse.Namespace) -> None:
    from entropic_bound.measures.fixed import measure_fixed

    measure_fixed(_dataset(a), a.weights, a.metrics, a.out, tol=a.params["tol"])


def cmd_estimate_fixed(a: argparse.Namespace) -> None:
    from entropic_bound.measures.estimators import estimate_fixed

    estimate_fixed(_dataset(a), a.out, tol=a.params["tol"])


def cmd_aggregate_table1(a: argparse.Namespace) -> None:
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.tables import read_parquets, table1

    cells = read_parquets(a.inputs)
    estimates = read_parquets(a.estimates)
    sweep, summary = table1(cells, estimates, primary=a.params["operator"])
    write_parquet(a.sweep, sweep)
    write_parquet(a.summary, summary)


def cmd_aggregate_table2(a: argparse.Namespace) -> None:
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.tables import read_parquets, table2

    cells = read_parquets(a.inputs)
    write_parquet(a.summary, table2(cells, primary=a.params["operator"]))


def cmd_estimate_e4(a: argparse.Namespace) -> None:
    from entropic_bound.measures.estimators import predictability

    predictability(_dataset(a), a.out, **a.params)


def cmd_estimate_rank(a: argparse.Namespace) -> None:
    from entropic_bound.measures.user_task import BadTask, estimate_task
    from entropic_bound.plumbing.settings import schema_defaults

    settings = {**schema_defaults("e4"), **a.params}
    try:
        estimate_task(a.data, a.mixing, settings, a.tol or schema_defaults("spectra")["tol"],
                      a.out)
    except BadTask as err:  # one clear line: the file and what it expects
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(2)


def cmd_aggregate_table4(a: argparse.Namespace) -> None:
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.tables import read_parquets, table4

    pred, scores = table4(read_parquets(a.inputs))
    write_parquet(a.summary, pred)
    write_parquet(a.scores, scores)


def cmd_inspect(a: argparse.Namespace) -> None:
    from entropic_bound.measures.inspection import BadInspection, inspect_model
    from entropic_bound.plumbing.atomic import write_bytes, write_parquet

    try:
        frame = inspect_model(a.model, a.text, count=a.windows, context=a.context,
                              meta=a.meta, byte_tokens=a.byte_tokens, step=a.step)
    except BadInspection as err:  # one clear line: the file or option and what it expects
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(2)
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_rows", 10_000):
        print(frame.drop(columns=["model"]).round(4).to_string(index=False))
    if a.out:
        write_parquet(a.out, frame)
    if a.figure:
        from entropic_bound.reporting.figures import figure_inspect

        write_bytes(a.figure, figure_inspect(frame, f"{a.model} on {a.text} "
                                                    f"({a.windows} windows)"))


def cmd_fetch_corpus(a: argparse.Namespace) -> None:
    from entropic_bound.data.corpora import fetch_corpus

    p = a.params
    fetch_corpus(p["corpus"], p["sources"], a.text, a.provenance, cache=p["cache"],
                 lock=p["lock"], max_replaced_fraction=p["max_replaced_fraction"])


def cmd_tokenize_corpus(a: argparse.Namespace) -> None:
    from entropic_bound.data.tokens import tokenize_corpus

    tokenize_corpus(a.text, a.provenance, a.tokens, a.meta, **a.params)


def cmd_corpus_stats(a: argparse.Namespace) -> None:
    from entropic_bound.measures.corpus_stats import corpus_stats

    corpus_stats(a.tokens, a.meta, a.out, **a.params)


def _lm_args(params: dict) -> tuple[dict, object]:
    from entropic_bound.models.lm import LMConfig

    params = dict(params)
    cell = {k: params.pop(k) for k in ("corpus", "d_model", "seed")}
    return cell, LMConfig(**params)


def cmd_train_lm(a: argparse.Namespace) -> None:
    from entropic_bound.training.lm import train_lm

    params = dict(a.params)
    device = _device(params.pop("device"))
    cell, cfg = _lm_args(params)
    train_lm(a.tokens, a.meta, a.weights, a.metrics, a.checkpoints, cfg=cfg, device=device,
             **cell)


def cmd_measure_lm(a: argparse.Namespace) -> None:
    from entropic_bound.measures.lm import measure_lm

    cell, cfg = _lm_args(a.params)
    measure_lm(a.tokens, a.meta, a.weights, a.checkpoints, a.metrics, a.out, a.trajectory,
               cfg=cfg, **cell)


def cmd_aggregate_table6(a: argparse.Namespace) -> None:
    from entropic_bound.data.corpora import read_provenance
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.tables import read_parquets, table6

    measures = read_parquets(a.inputs)
    data_side = read_parquets(a.data_side)
    trajectory = read_parquets(a.trajectory_inputs)
    for path, frame in zip((a.cells, a.layers, a.stats, a.trajectory),
                           table6(measures, data_side, trajectory, h1_margin=a.h1_margin)):
        write_parquet(path, frame)
    write_parquet(a.corpora, data_side.merge(read_provenance(a.provenance), on="corpus"))


def cmd_claims(a: argparse.Namespace) -> None:
    from entropic_bound.claims.registry import write_claims

    write_claims(a.tables, a.out)


def cmd_render_report(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.report import render_report

    render_report(a.tables, a.claims, a.templates, a.markdown, a.html, a.params,
                  paper_config=a.paper_config, schema=a.schema,
                  captions=a.captions)


def cmd_costs(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.costs import cost_summary, read_benchmarks

    records = read_benchmarks(a.root)
    if records.empty:
        sys.exit(f"no benchmark files under {a.root}: run the workflow first")
    for by in ("experiment", "rule"):
        print(cost_summary(records, by).to_string(index=False, float_format="{:.1f}".format))
        print()


def cmd_snapshot(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.snapshot import write_snapshot

    stamp = write_snapshot(a.out, what=a.what, command=a.command, run_config=a.params,
                           tables=a.tables, report_dir=a.report_dir, benchmarks=a.benchmarks)
    print(json.dumps(stamp, indent=1))


def cmd_check_snapshot(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.snapshot import (
        added_keys,
        changed_settings,
        documented_changes,
        stale_reasons,
    )

    documented = documented_changes(a.results_page) if Path(a.results_page).exists() else set()
    reasons = stale_reasons(a.stamp, require_current_config=not a.any_config,
                            acknowledged=documented)
    for reason in reasons:
        print(f"{a.stamp}: stale: {reason}")
    if reasons:
        sys.exit(1)
    new, changed = added_keys(a.stamp), changed_settings(a.stamp) or []
    print(f"{a.stamp}: describes this checkout"
          + (f" (its settings; keys added since, at their defaults: {', '.join(new)})"
             if new else "")
          + (f"; settings changed since, documented in {a.results_page}: {', '.join(changed)}"
             if changed else ""))


def cmd_verify(a: argparse.Namespace) -> None:
    from entropic_bound.verify import verify

    found = verify(a.root, remove=a.remove)
    if found and not a.remove:
        sys.exit(1)


def _device(name: str) -> str:
    if name != "auto":
        return name
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def _json(text: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"not valid JSON: {err}") from err
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="entropic-bound", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, func, *args: tuple[str, dict]) -> argparse.ArgumentParser:
        sp = sub.add_parser(name)
        sp.set_defaults(func=func)
        sp.add_argument("--params", type=_json, default={}, help="settings as a JSON object")
        sp.add_argument("--threads", type=int, default=None, help="torch intra-op threads")
        for flag, kw in args:
            sp.add_argument(flag, **kw)
        return sp

    req = {"required": True}
    # Every command that reads a dataset checks that the file holds the dataset it is read as.
    spec = ("--spec", {"type": _json, "required": True,
                       "help": "the dataset's spec (make-data's --params) as JSON"})
    add("make-data", cmd_make_data, ("--out", req))
    add("train-grid", cmd_train_grid, spec, ("--data", req), ("--weights", req),
        ("--metrics", req))
    add("measure-grid", cmd_measure_grid, spec, ("--data", req), ("--weights", req),
        ("--metrics", req), ("--out", req))
    add("aggregate-grid", cmd_aggregate_grid, ("--inputs", {"nargs": "+", **req}),
        ("--cells", req), ("--sweep", req), ("--summary", req))
    add("train-fixed", cmd_train_fixed, spec, ("--data", req), ("--weights", req),
        ("--metrics", req))
    add("measure-fixed", cmd_measure_fixed, spec, ("--data", req), ("--weights", req),
        ("--metrics", req), ("--out", req))
    add("estimate-fixed", cmd_estimate_fixed, spec, ("--data", req), ("--out", req))
    add("aggregate-table1", cmd_aggregate_table1, ("--inputs", {"nargs": "+", **req}),
        ("--estimates", {"nargs": "+", **req}), ("--sweep", req), ("--summary", req))
    add("aggregate-table2", cmd_aggregate_table2, ("--inputs", {"nargs": "+", **req}),
        ("--summary", req))
    add("estimate-e4", cmd_estimate_e4, spec, ("--data", req), ("--out", req))
    add("aggregate-table4", cmd_aggregate_table4, ("--inputs", {"nargs": "+", **req}),
        ("--summary", req), ("--scores", req))
    add("estimate-rank", cmd_estimate_rank,
        ("data", {"help": "an .npz with X and Y (n x T x d), and V (d x d) where known"}),
        ("--mixing", {"choices": ["linear", "softmax"], "default": "softmax",
                      "help": "the model class the held-out fit assumes"}),
        ("--tol", {"type": float, "default": None,
                   "help": "relative numerical-rank tolerance (default: the schema's)"}),
        ("--out", {"default": None, "help": "also write every estimator's row as parquet"}))
    add("inspect", cmd_inspect,
        ("model", {"help": "an E6 cell's weights (.npz) or a local Hugging Face model folder"}),
        ("--text", {"required": True, "help": "UTF-8 text whose windows the model reads"}),
        ("--windows", {"type": int, "default": 32, "help": "evenly spaced windows"}),
        ("--context", {"type": int, "default": None,
                       "help": "tokens per window (default: the cell's context; 256 for a "
                               "Hugging Face model, at most its positions)"}),
        ("--meta", {"default": None, "help": "an E6 cell's corpus meta.json (its vocabulary)"}),
        ("--step", {"type": int, "default": None,
                    "help": "with an E6 cell's .checkpoints.npz: the checkpoint to read"}),
        ("--byte-tokens", {"action": "store_true",
                           "help": "a model folder without a tokenizer: UTF-8 bytes as ids"}),
        ("--out", {"default": None, "help": "also write the table as parquet"}),
        ("--figure", {"default": None, "help": "also draw the layer x head figure (PNG)"}))
    add("fetch-corpus", cmd_fetch_corpus, ("--text", req), ("--provenance", req))
    add("tokenize-corpus", cmd_tokenize_corpus, ("--text", req), ("--provenance", req),
        ("--tokens", req),
        ("--meta", req))
    add("corpus-stats", cmd_corpus_stats, ("--tokens", req), ("--meta", req), ("--out", req))
    add("train-lm", cmd_train_lm, ("--tokens", req), ("--meta", req), ("--weights", req),
        ("--metrics", req), ("--checkpoints", req))
    add("measure-lm", cmd_measure_lm, ("--tokens", req), ("--meta", req), ("--weights", req),
        ("--metrics", req), ("--checkpoints", req), ("--out", req), ("--trajectory", req))
    add("aggregate-table6", cmd_aggregate_table6, ("--inputs", {"nargs": "+", **req}),
        ("--trajectory-inputs", {"nargs": "+", **req}), ("--h1-margin", {"type": float, **req}),
        ("--data-side", {"nargs": "+", **req}), ("--provenance", {"nargs": "+", **req}),
        ("--cells", req), ("--layers", req), ("--stats", req), ("--corpora", req),
        ("--trajectory", req))
    add("verify", cmd_verify, ("--root", {"default": "results", "help": "folder to check"}),
        ("--remove", {"action": "store_true", "help": "delete the corrupt files"}))
    add("claims", cmd_claims, ("--tables", {"nargs": "+", **req}), ("--out", req))
    add("render-report", cmd_render_report, ("--tables", {"nargs": "+", **req}),
        ("--claims", req), ("--templates", req), ("--markdown", req), ("--html", req),
        ("--paper-config", {"default": None, "help": "the paper's config.yaml, to diff"}),
        ("--schema", {"default": None, "help": "config schema, to fill the paper's defaults"}),
        ("--captions", {"default": None, "help": "folder of figure_<table>.rst captions"}))
    add("costs", cmd_costs, ("--root", {"default": "results/benchmarks",
                                        "help": "Snakemake benchmark files of a run"}))
    add("snapshot", cmd_snapshot, ("--out", req), ("--what", req), ("--command", req),
        ("--tables", {"nargs": "+", **req}),
        ("--report-dir", {"default": None, "help": "rendered report and figures, if any"}),
        ("--benchmarks", {"default": "results/benchmarks"}))
    add("check-snapshot", cmd_check_snapshot, ("stamp", {"help": "a snapshot's stamp.json"}),
        ("--any-config", {"action": "store_true",
                          "help": "a partial run: do not require the current config"}),
        ("--results-page", {"default": "docs/results.md",
                            "help": "where setting changes since the snapshot are documented"}))
    return p


def main(argv: list[str] | None = None) -> None:
    from entropic_bound.plumbing.atomic import CorruptCacheError, DiskFull

    args = build_parser().parse_args(argv)
    _setup(args.threads)
    try:
        args.func(args)
    except CorruptCacheError as err:  # one clear line: which file, and the command that fixes it
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(3)
    except DiskFull as err:  # one line naming the output, not a chain of tracebacks
        logging.getLogger("entropic_bound").error("%s", err.strerror)
        sys.exit(4)


if __name__ == "__main__":
    main()
