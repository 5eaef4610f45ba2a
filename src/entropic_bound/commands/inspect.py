"""Every App. B measure per layer and head of an E6 cell or a local Hugging Face model."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import exit_with

OPTIONS = ("threads",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="an E6 cell's weights (.npz) or a local Hugging Face model "
                                 "folder")
    p.add_argument("--text", required=True, help="UTF-8 text whose windows the model reads")
    p.add_argument("--windows", type=int, default=32, help="evenly spaced windows")
    p.add_argument("--context", type=int, default=None,
                   help="tokens per window (default: the cell's context; 256 for a Hugging "
                        "Face model, at most its positions)")
    p.add_argument("--meta", default=None, help="an E6 cell's corpus meta.json (its vocabulary)")
    p.add_argument("--step", type=int, default=None,
                   help="with an E6 cell's .checkpoints.npz (train-lm --checkpoints writes "
                        "one): the checkpoint to read; refused for any other model")
    p.add_argument("--byte-tokens", action="store_true",
                   help="a model folder without a tokenizer: UTF-8 bytes as ids")
    p.add_argument("--out", default=None, help="also write the table as parquet")
    p.add_argument("--figure", default=None, help="also draw the layer x head figure (PNG)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress lines (none either where stderr is no terminal)")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.inspection import BadInspection, inspect_model
    from entropic_bound.plumbing.atomic import write_bytes, write_parquet
    from entropic_bound.plumbing.progress import Progress

    try:
        frame = inspect_model(a.model, a.text, count=a.windows, context=a.context,
                              meta=a.meta, byte_tokens=a.byte_tokens, step=a.step,
                              progress=Progress("inspect", a.quiet))
    except BadInspection as err:
        exit_with(err)
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_rows", 10_000):
        print(frame.drop(columns=["model"]).round(4).to_string(index=False))
    if a.out:
        write_parquet(a.out, frame)
    if a.figure:
        from entropic_bound.reporting.figures import figure_inspect

        write_bytes(a.figure, figure_inspect(frame, f"{a.model} on {a.text} "
                                                    f"({a.windows} windows)"))
