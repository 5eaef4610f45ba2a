"""How the paper's grid and App. B claims are judged: the one home of each threshold and
criterion (protocol §E3, §E6). The verdict columns of the tables (:mod:`tables.aggregate`), the
claims' rule texts (:mod:`claims.grid`) and the report's prose (:mod:`reporting.report`) are all
computed or written from these values, never restated.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.training.stopping import STOPPED_BY_PATIENCE

# Table 3 and Table 5 verdicts (protocol §E3), thresholds as fractions of the noise floor
# sigma^2 T d: the softmax excess at r* - 1 is only ~2.5 against a floor of 1.28, so
# deficiency asks for a tenth of the floor, not a multiple of it.
DEFICIENCY_FRACTION = 0.1
ACHIEVABILITY_FRACTION = 0.01
# recovery's energy check: |R~eff(K_hat) - R~eff(K*)| <= this fraction of R~eff(K*) (eq. 2)
ENERGY_TOLERANCE = 0.05


def deficiency_rule(sep: str = " ") -> str:
    return f"seed-mean converged excess(r) > {DEFICIENCY_FRACTION:g}{sep}floor for every r < r*"


def achievability_rule(sep: str = " ") -> str:
    return (f"|seed-mean converged excess(r)| < {ACHIEVABILITY_FRACTION:g}{sep}floor for every "
            f"swept r >= r* whose students settled")


def recovery_rule() -> str:
    return (f"round(Reff(K)) = r* and |R~eff(K) - R~eff(K*)| <= "
            f"{ENERGY_TOLERANCE:.0%} R~eff(K*)")


def deficient(excess: pd.Series, floor: float) -> bool:
    return bool((excess > DEFICIENCY_FRACTION * floor).all())


def achievable(excess: pd.Series, floor: float) -> bool:
    return bool((excess.abs() < ACHIEVABILITY_FRACTION * floor).all())


def energy_recovered(energy: float, teacher_energy: float) -> bool:
    return bool(abs(energy - teacher_energy) <= ENERGY_TOLERANCE * teacher_energy)


def training_criterion_rule() -> str:
    return ("a cell is trained when early stopping ended it before max_steps (converged) and "
            "its validation loss lies at least e6.h1_margin below the corpus's bigram entropy "
            "H1 (below_h1)")


def training_criterion(per_seed: pd.DataFrame, h1_margin: float) -> pd.DataFrame:
    """Protocol §E6's training criterion per (corpus, d_model, seed) cell: trained when early
    stopping ended it (``stop_reason`` :data:`STOPPED_BY_PATIENCE`: the validation loss had
    stopped improving before ``max_steps``) and its validation loss is at least ``h1_margin``
    nats/char below the corpus's bigram entropy H1 (``h1_bits`` * ln 2). Adds ``converged``,
    ``below_h1`` and ``trained``."""
    out = per_seed.copy()
    out["converged"] = out["stop_reason"] == STOPPED_BY_PATIENCE
    out["below_h1"] = out["val_loss"] <= out["h1_bits"] * np.log(2.0) - h1_margin
    out["trained"] = out["converged"] & out["below_h1"]
    return out
