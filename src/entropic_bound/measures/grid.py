"""Measurement of trained students: spectral measures of the learned kernels (protocol §1).

numpy only (no torch import), so measuring is cheap and editing it never reruns training.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.data.datasets import load_arrays
from entropic_bound.measures import spectra
from entropic_bound.plumbing.atomic import open_npz, read_parquet, write_parquet


def qk_kernel(wq: np.ndarray, wk: np.ndarray) -> np.ndarray:
    """The learned kernel K = W_Q W_K^T, in float64."""
    return wq.astype(np.float64) @ wk.astype(np.float64).T


def measure_dataset(data_path: str, weights_path: str, metrics_path: str, out: str,
                    tol: float) -> pd.DataFrame:
    """Spectral measures (protocol §1) of every learned kernel K = W_Q W_K^T of a dataset,
    joined to its training metrics, with the teacher kernel's measures as ``teacher_*``."""
    teacher = spectra.measures(load_arrays(data_path, "operator")["operator"], tol)
    metrics = read_parquet(metrics_path)
    with open_npz(weights_path) as w:
        measured = []
        for role, r in zip(metrics["role"], metrics["r"]):
            kernel = qk_kernel(w[f"{role}_r{r}_WQ"], w[f"{role}_r{r}_WK"])
            measured.append(spectra.measures(kernel, tol))
    frame = pd.concat([metrics.drop(columns=["curve_step", "curve_loss"]),
                       pd.DataFrame(measured)], axis=1)
    for name, value in teacher.items():
        frame[f"teacher_{name}"] = value
    write_parquet(out, frame)
    return frame
