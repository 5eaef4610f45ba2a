"""Fetch one E6 corpus from its sources and record its provenance."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--text", "--provenance")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.data.corpora import fetch_corpus

    p = a.params
    fetch_corpus(p["corpus"], p["sources"], a.text, a.provenance, cache=p["cache"],
                 lock=p["lock"], max_replaced_fraction=p["max_replaced_fraction"])
