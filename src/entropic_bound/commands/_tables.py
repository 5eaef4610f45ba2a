"""A table a command writes: its parquet file (what the workflow reads) and a CSV view beside
it, ``<name>.csv``, what Snakemake's report shows (its viewer shows CSV as a table and
parquet as unreadable text; the rules mark the views for the report, workflow/rules/common.smk
``tables``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def write_table(path: str | os.PathLike[str], frame: Any) -> None:
    """``frame`` to ``path`` (parquet) and to its CSV view beside it, each atomically."""
    from entropic_bound.plumbing.atomic import write_parquet, write_text

    write_parquet(path, frame)
    write_text(Path(path).with_suffix(".csv"), frame.to_csv(index=False))
