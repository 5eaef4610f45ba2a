"""Char-tokenize one fetched corpus into train and validation ids."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--text", "--provenance", "--tokens", "--meta")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.data.tokens import tokenize_corpus

    tokenize_corpus(a.text, a.provenance, a.tokens, a.meta, **a.params)
