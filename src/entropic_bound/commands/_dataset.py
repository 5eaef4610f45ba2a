"""The dataset a command reads, once checked to be the one its spec names."""

from __future__ import annotations

import argparse


def dataset(a: argparse.Namespace) -> str:
    """``--data``, once checked to hold the dataset ``--spec`` names."""
    from entropic_bound.data.datasets import check_dataset

    check_dataset(a.data, a.spec)
    return a.data
