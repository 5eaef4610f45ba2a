"""The dataset a command reads, once checked to be the one its spec names; the arguments and
settings of the commands that train on one."""

from __future__ import annotations

import argparse
from typing import Any


def dataset(a: argparse.Namespace) -> str:
    """``--data``, once checked to hold the dataset ``--spec`` names."""
    from entropic_bound.data.datasets import check_dataset

    check_dataset(a.data, a.spec)
    return a.data


def add_training_arguments(p: argparse.ArgumentParser) -> None:
    """A training command's options: the dataset (``--spec``, ``--data``) and where its
    students' weights and metrics go."""
    from entropic_bound.commands._args import add_paths, add_spec

    add_spec(p)
    add_paths(p, "--data", "--weights", "--metrics")


def training_settings(a: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """A training command's settings (``--params`` without its device) and the device they
    name, resolved (``auto`` -> ``cuda`` or ``cpu``)."""
    from entropic_bound.plumbing.device import resolve_device

    params = dict(a.params)
    return params, resolve_device(params.pop("device"))
