"""Measurement of fixed-operator students (protocol §E1, E2): the realized operator of each student.

Per student: spectral measures of its static operator (A = P Q^T for B0, the query-key kernel
otherwise; prefix ``op_``) and the MP-corrected Reff of it (Theorem 8, m = operator dimension,
n = training samples); R(E_X[M(X)]) of the data-averaged mixer (``mix_mean_``) and the per-input
mean E_X[R(M(X))] (``mix_input_``), each as Reff (eq. 1) and R~eff (eq. 2). For the E1 sweep,
the exact Eckart-Young excess ||V*||_F^2 sum_{j>r} lambda_j^2 and the Theorem 5 lower bound
lambda_min(Sigma_X) sigma_min(V*)^2 sum_{j>r} lambda_j^2 (eq. 7) stand beside each rank r.
Every row also carries its dataset's achievable excesses and operator energy
(:func:`entropic_bound.measures.achievable.fixed_task_bounds`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from entropic_bound.data.datasets import load_arrays, load_spec
from entropic_bound.measures import spectra
from entropic_bound.measures.achievable import (
    eckart_young_excess,
    fixed_task_bounds,
    theorem5_bound,
)
from entropic_bound.models import ladder
from entropic_bound.plumbing.atomic import open_npz, read_parquet, write_parquet


def measure_fixed(data_path: str, weights_path: str, metrics_path: str, out: str,
                  tol: float) -> pd.DataFrame:
    spec = load_spec(data_path)
    arrays = load_arrays(data_path, "X", "Y", "V", "operator", "spectrum")
    x = arrays["X"].astype(np.float64)
    bounds = fixed_task_bounds(x, arrays["Y"].astype(np.float64), arrays["operator"],
                               arrays["V"], arrays["spectrum"], spec.r_star, spec.noise_floor)
    xt = torch.from_numpy(x)
    metrics = read_parquet(metrics_path).drop(columns=["curve_step", "curve_loss"])
    rows = []
    with open_npz(weights_path) as w:
        for cls, role, r in zip(metrics["class"], metrics["role"], metrics["r"]):
            p = {k: v.astype(np.float64) for k, v in ladder.student_params(w, cls, role, r).items()}
            op = ladder.static_operator(cls, p)
            row = {**bounds, **{f"op_{k}": v for k, v in spectra.measures(op, tol).items()}}
            row["op_reff_mp"] = spectra.mp_correct(row["op_reff"], op.shape[0], spec.n)
            with torch.no_grad():
                mix = ladder.mixer(cls, xt, {k: torch.from_numpy(v) for k, v in p.items()})
            mix = mix.numpy()
            mean_mix = mix.mean(axis=0)
            row["mix_mean_reff"] = spectra.reff(mean_mix)
            row["mix_mean_reff_energy"] = spectra.reff_energy(mean_mix)
            row["mix_input_reff"] = float(spectra.reff_stack(mix).mean())
            row["mix_input_reff_energy"] = float(spectra.reff_stack(mix, energy=True).mean())
            if role == "sweep":
                row["eckart_young"] = eckart_young_excess(arrays["V"], arrays["spectrum"], r)
                row["theorem5_bound"] = theorem5_bound(x, arrays["V"], arrays["spectrum"], r)
            rows.append(row)
    frame = pd.concat([metrics, pd.DataFrame(rows)], axis=1)
    write_parquet(out, frame)
    return frame

