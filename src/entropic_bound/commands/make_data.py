"""Draw one synthetic dataset (teacher, inputs, targets) from its spec (eqs. 8-9)."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--out")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.data.datasets import write_dataset
    from entropic_bound.data.teachers import TeacherSpec

    write_dataset(TeacherSpec(**a.params), a.out)
