"""Table 6 (App. B) from every E6 cell's measures and every corpus's data side."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--cells", "--layers", "--stats", "--corpora", "--trajectory",
              many=("--inputs", "--trajectory-inputs", "--data-side", "--provenance"))
    p.add_argument("--h1-margin", type=float, required=True)


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.data.corpora import read_provenance
    from entropic_bound.tables.aggregate import read_parquets
    from entropic_bound.tables.lm import table6

    measures = read_parquets(a.inputs)
    data_side = read_parquets(a.data_side)
    trajectory = read_parquets(a.trajectory_inputs)
    for path, frame in zip((a.cells, a.layers, a.stats, a.trajectory),
                           table6(measures, data_side, trajectory, h1_margin=a.h1_margin)):
        write_table(path, frame)
    write_table(a.corpora, data_side.merge(read_provenance(a.provenance), on="corpus"))
