"""Claims of the fixed-operator experiments: the linear surrogate (E1, Table 1) and
the interpolation ladder (E2, Table 2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from entropic_bound.claims import published as P
from entropic_bound.claims.rules import (
    CHECK,
    NOT_REPRODUCED,
    NOT_RUN,
    PARTLY,
    REPRODUCED,
    Claim,
    Outcome,
    Readings,
    fraction_verdict,
    merge_readings,
)
from entropic_bound.tables import criteria


def _primary(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of the paper's operator (Tables 1-2 also hold sensitivity variants)."""
    return table[table["primary"]]


def _quantity(t1: pd.DataFrame, name: str, stat: str = "mean") -> float:
    rows = _primary(t1)
    hit = rows.loc[rows["quantity"] == name, stat]
    return float(hit.iloc[0]) if len(hit) else float("nan")


def paper_v_energy_percentile(r: int) -> tuple[float, float]:
    """The ||V*||_F^2 the paper's excess at rank r implies (its value over the Eckart-Young tail
    sum_{j>r} lambda_j^2), and that draw's percentile: V* has N(0, 1/d) entries, so
    d ||V*||_F^2 ~ chi^2 with d^2 degrees of freedom (mean ||V*||_F^2 = d)."""
    from scipy.stats import chi2

    tail = sum(lam**2 for lam in P.E1_SPECTRUM[r:])
    implied = P.E1_EXCESS[r] / tail
    return implied, float(chi2.cdf(P.E1_D * implied, P.E1_D**2))


def _t1_excess(r: int) -> Callable[[pd.DataFrame], Outcome]:
    """Each seed's converged excess against its own Eckart-Young value ||V*||_F^2 sum_{j>r}
    lambda_j^2: the paper's 28.5 / 8.8 depend on its one V* draw, ours on ours."""
    def evaluate(t1: pd.DataFrame) -> Outcome:
        name = f"excess_r{r}_over_eckart_young"
        lo, hi = _quantity(t1, name, "min"), _quantity(t1, name, "max")
        if not np.isfinite(lo):
            return "-", NOT_RUN
        if _quantity(t1, "n_unsettled", "max") > 0:
            return "not judged: unsettled students in the sweep", NOT_RUN
        worst = max(abs(lo - 1), abs(hi - 1))
        implied, pct = paper_v_energy_percentile(r)
        text = (f"excess {_quantity(t1, f'excess_r{r}'):.4g}; per seed / own Eckart-Young "
                f"{lo:.3f}-{hi:.3f}. The paper's {P.E1_EXCESS[r]} implies ||V*||_F^2 = "
                f"{implied:.2f}, the {100 * pct:.1f}th percentile of V* draws (mean {P.E1_D})")
        return text, (REPRODUCED if worst <= 0.03 else PARTLY if worst <= 0.10
                      else NOT_REPRODUCED)
    return evaluate


def _t1_floor_reached(t1: pd.DataFrame) -> Outcome:
    if _quantity(t1, "n_unsettled", "max") > 0:
        return "not judged: unsettled students in the sweep", NOT_RUN
    floor = _quantity(t1, "noise_floor")
    at = abs(_quantity(t1, "excess_r3"))
    above = _quantity(t1, "max_abs_excess_above_r_star")
    ok_at, ok_above = (at < criteria.ACHIEVABILITY_FRACTION * floor,
                       above < criteria.ACHIEVABILITY_FRACTION * floor)
    verdict = REPRODUCED if ok_at and ok_above else (PARTLY if ok_at or ok_above
                                                     else NOT_REPRODUCED)
    return f"|excess(r*)| {at:.3g}, max above {above:.3g}", verdict


def _t1_mp(t1: pd.DataFrame) -> Outcome:
    value = _quantity(t1, "recovery_reff_mp")
    gap = abs(value - P.E1_MP_REFF)
    return f"{value:.3f}", (REPRODUCED if gap <= 0.05 else PARTLY if gap <= 0.3
                            else NOT_REPRODUCED)


def _rank_exact(t1: pd.DataFrame, quantity: str) -> bool:
    """The data-only rank ``quantity`` is the paper's 3 on every seed."""
    return _quantity(t1, quantity, "min") == _quantity(t1, quantity, "max") == P.E1_DATAONLY_RANK


def _t1_rank_readings(estimator: str) -> Readings:
    """The other reading of "numerical rank" (protocol, "V known"): Gavish-Donoho's
    threshold in place of the relative tolerance, exact on every seed."""
    def readings(t1: pd.DataFrame) -> dict[str, str]:
        gd = f"dataonly_{estimator}_gd_rank"
        if not np.isfinite(_quantity(t1, gd)):
            return {}
        return {"Gavish-Donoho": REPRODUCED if _rank_exact(t1, gd) else NOT_REPRODUCED}
    return readings


def _t1_rank(estimator: str) -> Callable[[pd.DataFrame], Outcome]:
    def evaluate(t1: pd.DataFrame) -> Outcome:
        rel, gd = f"dataonly_{estimator}_numerical_rank", f"dataonly_{estimator}_gd_rank"
        if not np.isfinite(_quantity(t1, rel)):
            return "-", NOT_RUN
        rel_exact, gd_exact = _rank_exact(t1, rel), _rank_exact(t1, gd)
        text = (f"relative tol: {_quantity(t1, rel, 'min'):.0f}-{_quantity(t1, rel, 'max'):.0f}; "
                f"Gavish-Donoho: {_quantity(t1, gd, 'min'):.0f}-{_quantity(t1, gd, 'max'):.0f}")
        dropped = _quantity(t1, f"dataonly_{estimator}_dropped_over_tol", "max")
        if np.isfinite(dropped):  # how close the call was: near 1 it hangs on the tolerance
            text += f"; first dropped / tol at most {dropped:.2f}"
        return text, REPRODUCED if rel_exact else (PARTLY if gd_exact else NOT_REPRODUCED)
    return evaluate


def _t1_noise_floor(t1: pd.DataFrame) -> Outcome:
    floor = _quantity(t1, "noise_floor")
    return f"{floor:.4g}", (REPRODUCED if abs(floor - P.E1_NOISE_FLOOR) < 1e-9
                            else NOT_REPRODUCED)


NORMALIZED_CLOSE, NORMALIZED_NEAR = 0.05, 0.15


def _t2_class(cls: str) -> Callable[[pd.DataFrame], Outcome]:
    """B0: |converged excess| < ACHIEVABILITY_FRACTION floor (tables.criteria). Others:
    excess / (||A*||_F^2 ||V*||_F^2) against the paper's value / 72.5 (its implied operator
    energy), so V* draws of other norms compare."""
    def evaluate(t2: pd.DataFrame) -> Outcome:
        rows = _primary(t2)
        rows = rows[rows["class"] == cls]
        if rows.empty:
            return "-", NOT_RUN
        value = float(rows["excess_at_r_star"].iloc[0])
        if rows["n_unsettled"].iloc[0] > 0:
            return f"not judged: {int(rows['n_unsettled'].iloc[0])} unsettled students", NOT_RUN
        if P.E2_EXCESS[cls] == 0.0:
            floor = float(rows["noise_floor"].iloc[0])
            ok = abs(value) < criteria.ACHIEVABILITY_FRACTION * floor
            return f"{value:.3g}", REPRODUCED if ok else NOT_REPRODUCED
        norm = float(rows["excess_normalized"].iloc[0])
        target = P.E2_EXCESS[cls] / P.E2_OPERATOR_ENERGY
        gap = abs(norm - target)
        return (f"{value:.4g} (normalised {norm:.3f} vs paper {target:.3f})"
                + (_b3_readings(t2, target) if cls == "B3" else ""),
                REPRODUCED if gap <= NORMALIZED_CLOSE else PARTLY if gap <= NORMALIZED_NEAR
                else NOT_REPRODUCED)
    return evaluate


def _b3_variants(evaluate: Callable[[pd.DataFrame], Outcome]) -> Readings:
    """A B3 claim read on each sensitivity variant of the block (protocol §E2: the paper does
    not say which block it trained): the variant's rows in the literal block's place, judged
    by the same rule."""
    def readings(t2: pd.DataFrame) -> dict[str, str]:
        variants = sorted(c for c in _primary(t2)["class"].unique() if c.startswith("B3_"))
        return {f"block {v}": evaluate(t2[t2["class"] != "B3"].replace({"class": {v: "B3"}}))[1]
                for v in variants}
    return readings


def _operator_variants(evaluate: Callable[[pd.DataFrame], Outcome]) -> Readings:
    """An E2 claim read on each operator of ``e2.operator_variants`` (protocol §2: the
    symmetric U diag(lambda) U^T beside the paper's independent U, W), judged by the same rule
    on that operator's rows, trained at r = r* only."""
    def readings(t2: pd.DataFrame) -> dict[str, str]:
        others = sorted(t2.loc[~t2["primary"], "operator"].unique())
        return {f"{op} operator": evaluate(t2.assign(primary=t2["operator"] == op))[1]
                for op in others}
    return readings


def _b3_readings(t2: pd.DataFrame, target: float) -> str:
    """The B3 variants' normalised excesses and which of them reach the paper's value (within
    NORMALIZED_CLOSE), printed beside the literal block's verdict, which they never replace
    (protocol §E2: the paper does not say which block it trained)."""
    rows = _primary(t2)
    rows = rows[rows["class"].str.startswith("B3_")].sort_values("class")
    if rows.empty:
        return ""
    parts = [f"{c} {v:.3f}" for c, v in zip(rows["class"], rows["excess_normalized"])]
    near = [c for c, v in zip(rows["class"], rows["excess_normalized"])
            if abs(v - target) <= NORMALIZED_CLOSE]
    return (f"; variants (normalised): {', '.join(parts)}; within {NORMALIZED_CLOSE} of the "
            f"paper: {', '.join(near) or 'none'}")


def _t2_not_softmax(t2: pd.DataFrame) -> Outcome:
    e = _primary(t2).set_index("class")["excess_at_r_star"]
    if not {"B1", "B1c", "B2"} <= set(e.index):
        return "-", NOT_RUN
    spread = (e[["B1", "B1c", "B2"]].max() - e[["B1", "B1c", "B2"]].min()) / e["B1"]
    b0 = abs(e.get("B0", np.nan))
    ok = spread <= 0.05 and b0 < 0.05 * e["B1"]
    return (f"B1 {e['B1']:.4g}, B1c {e['B1c']:.4g}, B2 {e['B2']:.4g} (spread {spread:.1%}); "
            f"B0 {e.get('B0', np.nan):.3g}"), REPRODUCED if ok else NOT_REPRODUCED


LADDER_ATTENTION = ("B1", "B1c", "B2", "B3")  # the classes whose mixer is input-conditioned
REALIZED = (("static", "overparam_op_reff"), ("mean mixer", "overparam_mix_mean_reff"),
            ("per input", "overparam_mix_input_reff"))


def _t2_row(t2: pd.DataFrame, cls: str) -> pd.Series | None:
    rows = _primary(t2)
    rows = rows[rows["class"] == cls]
    return None if rows.empty else rows.iloc[0]


def _t2_b0_recovers(t2: pd.DataFrame) -> Outcome:
    """Over-parameterised B0 (r = T): round(Reff(A)) = r* (partly: within 1)."""
    row = _t2_row(t2, "B0")
    if row is None or not np.isfinite(row.get("overparam_op_reff", np.nan)):
        return "-", NOT_RUN
    value = float(row["overparam_op_reff"])
    return f"Reff(A) {value:.3f}", (REPRODUCED if round(value) == P.E2_R_STAR else
                                    PARTLY if abs(value - P.E2_R_STAR) <= 1 else NOT_REPRODUCED)


def _t2_realized_not_r_star(t2: pd.DataFrame) -> Outcome:
    """For each of B1, B1c, B2, B3: none of its over-parameterised realized measures (static
    kernel, mean mixer, per-input mixer) rounds to r*; the fraction of classes that hold."""
    parts, hits, total = [], 0, 0
    for cls in LADDER_ATTENTION:
        row = _t2_row(t2, cls)
        if row is None or not all(np.isfinite(row.get(col, np.nan)) for _, col in REALIZED):
            continue
        values = [float(row[col]) for _, col in REALIZED]
        total += 1
        hits += all(round(v) != P.E2_R_STAR for v in values)
        parts.append(f"{cls} " + "/".join(f"{v:.2f}" for v in values))
    if not total:
        return "-", NOT_RUN
    return (f"{hits}/{total} classes off r* = {P.E2_R_STAR} (static/mean mixer/per input: "
            + "; ".join(parts) + ")"), fraction_verdict(hits, total)


def _t2_b3_below_b2(t2: pd.DataFrame) -> Outcome:
    b2, b3 = _t2_row(t2, "B2"), _t2_row(t2, "B3")
    if b2 is None or b3 is None:
        return "-", NOT_RUN
    e2, e3 = float(b2["excess_at_r_star"]), float(b3["excess_at_r_star"])
    return f"B3 {e3:.4g} vs B2 {e2:.4g}", REPRODUCED if e3 < e2 else NOT_REPRODUCED


CLAIMS: list[Claim] = [
    Claim("E1.noise_floor", "E1", "Table 1", "noise floor sigma^2 T d", f"{P.E1_NOISE_FLOOR}",
          "exact", "table1.noise_floor", _t1_noise_floor, CHECK),
    *[Claim(f"E1.excess_r{r}", "E1", "Section 4, Table 1", f"converged excess at r = {r}",
            f"{P.E1_EXCESS[r]}",
            "every seed within 3% of its own Eckart-Young value (partly 10%)",
            f"table1.excess_r{r}_over_eckart_young", _t1_excess(r)) for r in P.E1_EXCESS],
    Claim("E1.floor_at_r_star", "E1", "Section 4, Table 1",
          "excess collapses at r = r* (~2e-4) and stays flat for r > r*", "~2e-4, flat",
          f"|converged excess| < {criteria.ACHIEVABILITY_FRACTION:g} floor at r* and above",
          "table1.excess_r3",
          _t1_floor_reached),
    Claim("E1.mp_corrected_reff", "E1", "Section 4, Table 1",
          "MP-corrected Reff of the over-parameterised A", f"{P.E1_MP_REFF}",
          "within 0.05 (partly 0.3)", "table1.recovery_reff_mp", _t1_mp),
    Claim("E1.dataonly_rank.v_known", "E1", "Section 4", "data-only numerical rank, V known",
          "exactly 3", "relative-tol rank = 3 on every seed (partly: Gavish-Donoho only)",
          "table1.dataonly_v_known_numerical_rank", _t1_rank("v_known"),
          readings=_t1_rank_readings("v_known")),
    Claim("E1.dataonly_rank.v_unknown", "E1", "Section 4",
          "data-only numerical rank, V unknown (Van Loan-Pitsianis)", "exactly 3",
          "relative-tol rank = 3 on every seed (partly: Gavish-Donoho only)",
          "table1.dataonly_v_unknown_numerical_rank", _t1_rank("v_unknown"),
          readings=_t1_rank_readings("v_unknown")),
    *[Claim(f"E2.excess.{cls}", "E2", "Section 5, Table 2", f"converged excess at r* of {cls}",
            P.TABLE2[cls],
            f"|excess| < {criteria.ACHIEVABILITY_FRACTION:g} floor" if value == 0.0 else
            f"excess / (||A*||^2 ||V*||^2) within {NORMALIZED_CLOSE} of paper / "
            f"{P.E2_OPERATOR_ENERGY} (partly {NORMALIZED_NEAR})",
            "table2.excess_normalized", _t2_class(cls),
            readings=merge_readings(*([_b3_variants(_t2_class(cls))] if cls == "B3" else []),
                                    _operator_variants(_t2_class(cls))))
      for cls, value in P.E2_EXCESS.items()],
    Claim("E2.b0_recovers", "E2", "Section 5, Table 2",
          "over-parameterised B0 recovers Reff -> r*", f"Reff -> {P.E2_R_STAR}",
          "round(Reff(A)) = r* (partly: within 1)", "table2.overparam_op_reff",
          _t2_b0_recovers),
    Claim("E2.realized_not_r_star", "E2", "Section 5",
          "B1-B3: no static or realized Reff of the over-parameterised student gives r*",
          f"!= {P.E2_R_STAR}",
          "for each of B1, B1c, B2, B3 no measure (static kernel, mean mixer, per-input mixer) "
          "rounds to r*; all four classes", "table2.overparam_op_reff", _t2_realized_not_r_star),
    Claim("E2.b3_below_b2", "E2", "Section 5, Table 2", "B3's excess at r* below B2's",
          f"{P.TABLE2['B3']} < {P.TABLE2['B2']}", "excess(B3) < excess(B2)",
          "table2.excess_at_r_star", _t2_b3_below_b2,
          readings=merge_readings(_b3_variants(_t2_b3_below_b2),
                                  _operator_variants(_t2_b3_below_b2))),
    Claim("E2.not_softmax_not_rank", "E2", "Section 5",
          "break at B1: B1 ~ B1c ~ B2 >> B0 (input conditioning, not softmax or rank)",
          " ~ ".join(P.TABLE2[c] for c in ("B1", "B1c", "B2")) + " vs ~0",
          "B1/B1c/B2 within 5% of each other, B0 < 5% of B1",
          "table2.excess_at_r_star", _t2_not_softmax,
          readings=_operator_variants(_t2_not_softmax)),
]

