"""Dataset files: one ``.npz`` per teacher spec (X, Y float32 for training; operator, V float64).

The spec travels inside the file as JSON, so a cell's outputs can always be traced to the
teacher that made them.
"""

from __future__ import annotations

import json
import os

import numpy as np

from entropic_bound.data.teachers import TeacherSpec, generate
from entropic_bound.plumbing.atomic import open_npz, write_npz


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


def load_arrays(path: str | os.PathLike[str], *names: str) -> dict[str, np.ndarray]:
    """Only the named arrays (npz members load lazily, so a measure job skips X and Y)."""
    with open_npz(path) as z:
        missing = [n for n in names if n not in z.files]
        if missing:
            raise KeyError(f"{path}: missing arrays {missing}; found {sorted(z.files)}")
        return {n: z[n] for n in names}
