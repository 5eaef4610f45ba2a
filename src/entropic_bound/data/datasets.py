"""Dataset files: one ``.npz`` per teacher spec (X, Y float32 for training; operator, V float64).

The spec travels inside the file as JSON, so a cell's outputs can always be traced to the
teacher that made them.
"""

from __future__ import annotations

import json
import os

import numpy as np

from entropic_bound.data.teachers import TeacherSpec, generate
from entropic_bound.plumbing.atomic import CorruptCacheError, open_npz, write_npz


def write_dataset(spec: TeacherSpec, path: str | os.PathLike[str]) -> None:
    arrays = generate(spec)
    write_npz(
        path,
        X=arrays["X"].astype(np.float32), Y=arrays["Y"].astype(np.float32),
        X_test=arrays["X_test"].astype(np.float32), Y_test=arrays["Y_test"].astype(np.float32),
        operator=arrays["operator"], V=arrays["V"], spectrum=arrays["spectrum"],
        spec=np.array(json.dumps(spec.to_dict(), sort_keys=True)),
    )


def load_spec(path: str | os.PathLike[str]) -> TeacherSpec:
    with open_npz(path) as z:
        return TeacherSpec(**json.loads(str(z["spec"])))


class DatasetMismatch(CorruptCacheError):
    """A valid dataset file that holds another dataset than the one a job reads it as (copied
    or substituted): its stored spec differs from the job's."""

    def __init__(self, path: str | os.PathLike[str], stored: dict, expected: dict):
        diff = ", ".join(f"{k}={stored.get(k)!r} (expected {expected.get(k)!r})"
                         for k in sorted(set(stored) | set(expected))
                         if stored.get(k) != expected.get(k))
        RuntimeError.__init__(self, f"{path} holds another dataset: {diff}; it was replaced or "
                                    f"copied from another dataset. Rebuild it: add --forcerun "
                                    f"{path} to your snakemake command")
        self.path = str(path)


def check_dataset(path: str | os.PathLike[str], expected: dict) -> TeacherSpec:
    """The spec stored in the dataset file, checked against ``expected`` (the
    :class:`TeacherSpec` fields of the dataset the job reads it as, defaults filled in);
    raises :class:`DatasetMismatch` naming the file and every field that differs."""
    stored = load_spec(path)
    want = TeacherSpec(**expected)
    if stored != want:
        raise DatasetMismatch(path, stored.to_dict(), want.to_dict())
    return stored


def load_arrays(path: str | os.PathLike[str], *names: str) -> dict[str, np.ndarray]:
    """Only the named arrays (npz members load lazily, so a measure job skips X and Y)."""
    with open_npz(path) as z:
        missing = [n for n in names if n not in z.files]
        if missing:
            raise KeyError(f"{path}: missing arrays {missing}; found {sorted(z.files)}")
        return {n: z[n] for n in names}
