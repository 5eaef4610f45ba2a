"""E6's data side of one corpus: the predictor and its statistics."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--tokens", "--meta", "--out")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.corpus_stats import corpus_stats

    corpus_stats(a.tokens, a.meta, a.out, **a.params)
