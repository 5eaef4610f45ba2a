"""Char-tokenize one fetched corpus into train and validation ids.

Only once its held-out text passes the held-out hygiene check."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--text", "--provenance", "--tokens", "--meta")


def run(a: argparse.Namespace) -> None:
    import json
    import logging
    from pathlib import Path

    from entropic_bound.data.heldout import check_heldout, heldout_hygiene
    from entropic_bound.data.tokens import tokenize_corpus
    from entropic_bound.plumbing.atomic import read_verified_text

    # The check lives here, not in data/tokens.py, which every E6 training job executes: the
    # tokens it writes, and so every stored cell's key, stay as they were.
    params = dict(a.params)
    context, threshold = params.pop("context"), params.pop("max_heldout_overlap")
    name = json.loads(Path(a.provenance).read_text())["corpus"]
    hygiene = heldout_hygiene(read_verified_text(a.text, a.provenance), context=context,
                              **params)
    logging.getLogger("entropic_bound").info(
        "%s: %d of %d held-out windows in the training split (overlap %.3f, threshold %g); "
        "repeated lines %.3f", name, hygiene.in_train, hygiene.windows, hygiene.overlap,
        threshold, hygiene.repeated_lines)
    try:
        check_heldout(name, hygiene, threshold)
    except ValueError as err:  # one line in the job's log, not a traceback
        raise SystemExit(f"{a.text}: {err}") from None
    tokenize_corpus(a.text, a.provenance, a.tokens, a.meta, **params)
