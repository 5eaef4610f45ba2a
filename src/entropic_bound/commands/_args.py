"""Argument helpers that several commands share (nothing here reads data or imports torch)."""

from __future__ import annotations

import argparse
import logging
import sys

from entropic_bound.cli import json_object


def add_spec(p: argparse.ArgumentParser) -> None:
    """``--spec``: every command that reads a dataset checks it holds the dataset named."""
    p.add_argument("--spec", type=json_object, required=True,
                   help="the dataset's spec (make-data's --params) as JSON")


def add_paths(p: argparse.ArgumentParser, *flags: str, many: tuple[str, ...] = ()) -> None:
    """Required path options: one path each, or several for the flags in ``many``."""
    for flag in flags:
        p.add_argument(flag, required=True)
    for flag in many:
        p.add_argument(flag, nargs="+", required=True)


def exit_with(err: Exception, code: int = 2) -> None:
    """One clear line on stderr (the file or option and what it expects), then exit."""
    logging.getLogger("entropic_bound").error("%s", err)
    sys.exit(code)
