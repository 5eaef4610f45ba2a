"""The claims registry (SPEC section 4): every published number, where it stands in the paper,
the rule it is checked by, and the result column it is checked against.

A claim evaluates against the aggregated tables; a claim whose table is absent is "not run".
Verdicts: reproduced, partly, not reproduced, not run, and "not comparable" where the run's
budget leaves the measured quantity too close to its initial value to say anything. Nothing here
is tuned to pass: a rule is fixed before the numbers are seen and states its tolerance in
``rule``. The published values come from :mod:`entropic_bound.published`, their only home.

Entries of kind "check" are arithmetic consistency checks (noise floors, teacher energy ranks):
they test the pipeline's definitions, not the paper's experiments, and stay out of the tallies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import published as P
from .atomic import read_parquet, write_parquet

REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_RUN = "reproduced", "partly", "not reproduced", "not run"
NOT_COMPARABLE = "not comparable"
CLAIM, CHECK = "claim", "check"

Tables = Mapping[str, pd.DataFrame]
Outcome = tuple[str, str]  # (reproduced value as text, verdict)


@dataclass(frozen=True)
class Claim:
    id: str
    experiment: str
    location: str
    statement: str
    published: str
    rule: str
    column: str  # "<table>.<column>" the claim is checked against
    evaluate: Callable[[pd.DataFrame], Outcome]
    kind: str = CLAIM  # CHECK: an arithmetic consistency check, outside the tallies

    @property
    def table(self) -> str:
        return self.column.split(".", 1)[0]


def fraction_verdict(hits: int, total: int) -> str:
    if total == 0:
        return NOT_RUN
    return REPRODUCED if hits == total else (NOT_REPRODUCED if hits == 0 else PARTLY)


def ratio_verdict(value: float, target: float, close: float, near: float) -> str:
    """reproduced within a factor ``close`` of target, partly within ``near``, else not."""
    if not np.isfinite(value) or value <= 0:
        return NOT_REPRODUCED
    factor = max(value / target, target / value)
    return REPRODUCED if factor <= close else (PARTLY if factor <= near else NOT_REPRODUCED)


def _all_rstar(teacher: str, column: str) -> Callable[[pd.DataFrame], Outcome]:
    """Fraction of r* where the verdict holds; an r* whose verdict is <NA> (deficiency at
    r* = 1: no r < r*; or a student it rests on is unsettled) is not judged, neither a pass nor
    a fail."""
    def evaluate(t3: pd.DataFrame) -> Outcome:
        rows = t3[t3["teacher"] == teacher]
        values = rows[column].astype("boolean")
        blank = values.isna().to_numpy()
        vacuous = ((rows["r_star"] == 1) & (column == "deficiency")).to_numpy()
        na = rows.loc[blank & vacuous, "r_star"].tolist()
        unsettled = rows.loc[blank & ~vacuous, "r_star"].tolist()
        judged = rows[~blank]
        ok = judged[column].astype(bool)
        hits, total = int(ok.sum()), len(judged)
        failed = judged.loc[~ok, "r_star"].tolist()
        text = (f"{hits}/{total}" + (f" (fails at r*={failed})" if failed else "")
                + (f" (n/a at r*={na})" if na else "")
                + (f" (not judged at r*={unsettled}: unsettled students)" if unsettled else ""))
        return text, fraction_verdict(hits, total)
    return evaluate


def _excess_below(teacher: str, target: float) -> Callable[[pd.DataFrame], Outcome]:
    def evaluate(t3: pd.DataFrame) -> Outcome:
        rows = t3[(t3["teacher"] == teacher) & (t3["r_star"] > 1)]
        if rows.empty:
            return "no r* > 1", NOT_RUN
        values = rows["excess_r_star_minus_1"]
        med = float(values.median())
        text = f"median {med:.3g} (range {values.min():.3g}-{values.max():.3g})"
        return text, ratio_verdict(med, target, close=2.0, near=10.0)
    return evaluate


def _cv_seed(t3: pd.DataFrame) -> Outcome:
    worst = float(t3["cv_seed"].max())
    if not np.isfinite(worst):
        return "needs >= 2 seeds", NOT_RUN
    verdict = (REPRODUCED if worst <= P.E3_CV_SEED_MAX else
               PARTLY if worst <= 0.10 else NOT_REPRODUCED)
    return f"max {worst:.4f}", verdict


def _noise_floor(t3: pd.DataFrame) -> Outcome:
    floor = float(t3["noise_floor"].iloc[0])
    return f"{floor:.4g}", REPRODUCED if abs(floor - P.E3_NOISE_FLOOR) < 1e-9 else NOT_REPRODUCED


def _teacher_energy(t3: pd.DataFrame) -> Outcome:
    rows = t3[t3["r_star"].isin(list(P.E3_TEACHER_ENERGY))].drop_duplicates("r_star")
    hits = sum(abs(v - P.E3_TEACHER_ENERGY[int(r)]) < 5e-4
               for r, v in zip(rows["r_star"], rows["teacher_reff_energy"]))
    values = ", ".join(f"{int(r)}:{v:.3f}" for r, v in zip(rows["r_star"],
                                                           rows["teacher_reff_energy"]))
    return values, fraction_verdict(int(hits), len(rows))


CLAIMS: list[Claim] = [
    Claim("E3.noise_floor", "E3", "App. C.1", "noise floor sigma^2 T d",
          f"{P.E3_NOISE_FLOOR}", "exact", "table3.noise_floor", _noise_floor, CHECK),
    Claim("E3.teacher_energy_ranks", "E3", "SPEC E3 / eq. 8",
          "teacher energy ranks of the sharp spectrum",
          ", ".join(f"{v:.3f}" for v in P.E3_TEACHER_ENERGY.values()), "each within 5e-4",
          "table3.teacher_reff_energy", _teacher_energy, CHECK),
    *[Claim(f"E3.{prop}.{teacher}", "E3", "Section 6, Table 3",
            f"{prop} holds for every r* ({teacher})", "6/6",
            rule, f"table3.{prop}", _all_rstar(teacher, prop))
      for teacher in ("linear_qk", "softmax_qk")
      for prop, rule in (
          ("deficiency", "seed-mean converged excess(r) > 0.1 floor for all r < r*; all r* "
                         "with r < r* pass (r* = 1: n/a)"),
          ("achievability", "|seed-mean converged excess(r)| < 0.01 floor for all r >= r*; "
                            "all r* pass"),
          ("recovery", "round(Reff(K)) = r* and |R~eff(K) - R~eff(K*)| <= 5%; all r* pass"))],
    Claim("E3.cv_seed", "E3", "Section 6", "seed CV of the recovered Reff",
          f"<= {P.E3_CV_SEED_MAX}",
          f"reproduced if max <= {P.E3_CV_SEED_MAX}, partly if <= 0.10", "table3.cv_seed",
          _cv_seed),
    *[Claim(f"E3.excess_below.{teacher}", "E3", "Section 6, Table 3",
            f"converged excess at r = r*-1, {teacher} teacher", P.TABLE3_EXCESS_BELOW[teacher],
            "median over r* > 1 within x2 (partly within x10)",
            "table3.excess_r_star_minus_1", _excess_below(teacher, value))
      for teacher, value in P.E3_EXCESS_BELOW.items()],
]


def _per_spectrum(spectrum: str,
                  judge: Callable[[pd.Series], Outcome]) -> Callable[[pd.DataFrame], Outcome]:
    """Apply ``judge`` to the Table 5 row of one spectrum ("not run" when it is absent)."""
    def evaluate(t5: pd.DataFrame) -> Outcome:
        rows = t5[t5["spectrum"] == spectrum]
        return ("-", NOT_RUN) if rows.empty else judge(rows.iloc[0])
    return evaluate


def _e5_teacher(spectrum: str) -> Callable[[pd.DataFrame], Outcome]:
    def judge(row: pd.Series) -> Outcome:
        value = float(row["teacher_reff_energy"])
        ok = abs(value - P.E5_TEACHER[spectrum]) < 5e-4
        return f"{value:.3f}", REPRODUCED if ok else NOT_REPRODUCED
    return _per_spectrum(spectrum, judge)


def _e5_recovered(spectrum: str) -> Callable[[pd.DataFrame], Outcome]:
    def judge(row: pd.Series) -> Outcome:
        value = float(row["recovery_reff_energy"])
        gap = abs(value - P.E5_RECOVERED[spectrum])
        verdict = REPRODUCED if gap <= 0.05 else (PARTLY if gap <= 0.25 else NOT_REPRODUCED)
        return f"{value:.3f} (teacher {float(row['teacher_reff_energy']):.3f})", verdict
    return _per_spectrum(spectrum, judge)


def _e5_achievability(t5: pd.DataFrame) -> Outcome:
    judged = t5[t5["achievability"].notna()]
    hits, total = int(judged["achievability"].astype(bool).sum()), len(judged)
    worst = float(t5["max_abs_excess_at_or_above"].max())
    skipped = len(t5) - total
    return (f"{hits}/{total} spectra, max |excess| at r >= r* {worst:.3g}"
            + (f" ({skipped} not judged: unsettled students)" if skipped else "")), \
        fraction_verdict(hits, total)


CLAIMS += [
    *[Claim(f"E5.teacher_energy.{sp}", "E5", "App. D, Table 5",
            f"teacher energy rank, {sp} spectrum (r* = 4)", f"{P.E5_TEACHER[sp]:.3f}",
            "within 5e-4", "table5.teacher_reff_energy", _e5_teacher(sp), CHECK)
      for sp in P.E5_TEACHER],
    *[Claim(f"E5.recovered_energy.{sp}", "E5", "App. D, Table 5",
            f"recovered energy rank R~eff(K), {sp} spectrum", f"{P.E5_RECOVERED[sp]:.2f}",
            "reproduced within 0.05, partly within 0.25", "table5.recovery_reff_energy",
            _e5_recovered(sp)) for sp in P.E5_RECOVERED],
    Claim("E5.achievability", "E5", "App. D, Table 5", "excess at r >= r* ~ 0 in all spectra",
          "3/3", "|seed-mean converged excess(r)| < 0.01 floor for all r >= r*",
          "table5.achievability", _e5_achievability),
]


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
    ok_at, ok_above = at < 0.01 * floor, above < 0.01 * floor
    verdict = REPRODUCED if ok_at and ok_above else (PARTLY if ok_at or ok_above
                                                     else NOT_REPRODUCED)
    return f"|excess(r*)| {at:.3g}, max above {above:.3g}", verdict


def _t1_mp(t1: pd.DataFrame) -> Outcome:
    value = _quantity(t1, "recovery_reff_mp")
    gap = abs(value - P.E1_MP_REFF)
    return f"{value:.3f}", (REPRODUCED if gap <= 0.05 else PARTLY if gap <= 0.3
                            else NOT_REPRODUCED)


def _t1_rank(estimator: str) -> Callable[[pd.DataFrame], Outcome]:
    def evaluate(t1: pd.DataFrame) -> Outcome:
        rel, gd = f"dataonly_{estimator}_numerical_rank", f"dataonly_{estimator}_gd_rank"
        if not np.isfinite(_quantity(t1, rel)):
            return "-", NOT_RUN
        target = P.E1_DATAONLY_RANK
        rel_exact = _quantity(t1, rel, "min") == _quantity(t1, rel, "max") == target
        gd_exact = _quantity(t1, gd, "min") == _quantity(t1, gd, "max") == target
        text = (f"relative tol: {_quantity(t1, rel, 'min'):.0f}-{_quantity(t1, rel, 'max'):.0f}; "
                f"Gavish-Donoho: {_quantity(t1, gd, 'min'):.0f}-{_quantity(t1, gd, 'max'):.0f}")
        return text, REPRODUCED if rel_exact else (PARTLY if gd_exact else NOT_REPRODUCED)
    return evaluate


def _t1_noise_floor(t1: pd.DataFrame) -> Outcome:
    floor = _quantity(t1, "noise_floor")
    return f"{floor:.4g}", (REPRODUCED if abs(floor - P.E1_NOISE_FLOOR) < 1e-9
                            else NOT_REPRODUCED)


NORMALIZED_CLOSE, NORMALIZED_NEAR = 0.05, 0.15


def _t2_class(cls: str) -> Callable[[pd.DataFrame], Outcome]:
    """B0: |converged excess| < 0.01 floor. Others: excess / (||A*||_F^2 ||V*||_F^2) against
    the paper's value / 72.5 (its implied operator energy), so V* draws of other norms compare."""
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
            return f"{value:.3g}", REPRODUCED if abs(value) < 0.01 * floor else NOT_REPRODUCED
        norm = float(rows["excess_normalized"].iloc[0])
        target = P.E2_EXCESS[cls] / P.E2_OPERATOR_ENERGY
        gap = abs(norm - target)
        return (f"{value:.4g} (normalised {norm:.3f} vs paper {target:.3f})",
                REPRODUCED if gap <= NORMALIZED_CLOSE else PARTLY if gap <= NORMALIZED_NEAR
                else NOT_REPRODUCED)
    return evaluate


def _t2_not_softmax(t2: pd.DataFrame) -> Outcome:
    e = _primary(t2).set_index("class")["excess_at_r_star"]
    if not {"B1", "B1c", "B2"} <= set(e.index):
        return "-", NOT_RUN
    spread = (e[["B1", "B1c", "B2"]].max() - e[["B1", "B1c", "B2"]].min()) / e["B1"]
    b0 = abs(e.get("B0", np.nan))
    ok = spread <= 0.05 and b0 < 0.05 * e["B1"]
    return (f"B1 {e['B1']:.4g}, B1c {e['B1c']:.4g}, B2 {e['B2']:.4g} (spread {spread:.1%}); "
            f"B0 {e.get('B0', np.nan):.3g}"), REPRODUCED if ok else NOT_REPRODUCED


CLAIMS += [
    Claim("E1.noise_floor", "E1", "Table 1", "noise floor sigma^2 T d", f"{P.E1_NOISE_FLOOR}",
          "exact", "table1.noise_floor", _t1_noise_floor, CHECK),
    *[Claim(f"E1.excess_r{r}", "E1", "Section 4, Table 1", f"converged excess at r = {r}",
            f"{P.E1_EXCESS[r]}",
            "every seed within 3% of its own Eckart-Young value (partly 10%)",
            f"table1.excess_r{r}_over_eckart_young", _t1_excess(r)) for r in P.E1_EXCESS],
    Claim("E1.floor_at_r_star", "E1", "Section 4, Table 1",
          "excess collapses at r = r* (~2e-4) and stays flat for r > r*", "~2e-4, flat",
          "|converged excess| < 0.01 floor at r* and above", "table1.excess_r3",
          _t1_floor_reached),
    Claim("E1.mp_corrected_reff", "E1", "Section 4, Table 1",
          "MP-corrected Reff of the over-parameterised A", f"{P.E1_MP_REFF}",
          "within 0.05 (partly 0.3)", "table1.recovery_reff_mp", _t1_mp),
    Claim("E1.dataonly_rank.v_known", "E1", "Section 4", "data-only numerical rank, V known",
          "exactly 3", "relative-tol rank = 3 on every seed (partly: Gavish-Donoho only)",
          "table1.dataonly_v_known_numerical_rank", _t1_rank("v_known")),
    Claim("E1.dataonly_rank.v_unknown", "E1", "Section 4",
          "data-only numerical rank, V unknown (Van Loan-Pitsianis)", "exactly 3",
          "relative-tol rank = 3 on every seed (partly: Gavish-Donoho only)",
          "table1.dataonly_v_unknown_numerical_rank", _t1_rank("v_unknown")),
    *[Claim(f"E2.excess.{cls}", "E2", "Section 5, Table 2", f"converged excess at r* of {cls}",
            P.TABLE2[cls],
            "|excess| < 0.01 floor" if value == 0.0 else
            f"excess / (||A*||^2 ||V*||^2) within {NORMALIZED_CLOSE} of paper / "
            f"{P.E2_OPERATOR_ENERGY} (partly {NORMALIZED_NEAR})",
            "table2.excess_normalized", _t2_class(cls)) for cls, value in P.E2_EXCESS.items()],
    Claim("E2.not_softmax_not_rank", "E2", "Section 5",
          "break at B1: B1 ~ B1c ~ B2 >> B0 (input conditioning, not softmax or rank)",
          " ~ ".join(P.TABLE2[c] for c in ("B1", "B1c", "B2")) + " vs ~0",
          "B1/B1c/B2 within 5% of each other, B0 < 5% of B1",
          "table2.excess_at_r_star", _t2_not_softmax),
]


def _t4(teacher: str, estimator: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    def rows(t4: pd.DataFrame) -> pd.DataFrame:
        return t4[(t4["teacher"] == teacher) & (t4["estimator"] == estimator)].sort_values(
            "r_star")
    return rows


def _t4_linear_rank(t4: pd.DataFrame) -> Outcome:
    """Binding: seed-mean numerical rank at the relative tolerance = r*. The text adds the rank
    at 1e-2, the largest-gap rank and sigma_min(V*) of each miss: the misses are ill-conditioned
    V* draws (Y V*^-1 amplifies noise), not a failure of the kernel's low rank."""
    r = _t4("linear_qk", "v_known")(t4)
    exact = r["numerical_rank"] == r["r_star"]
    hits = int(exact.sum())
    gd = int((r["gd_rank"] == r["r_star"]).sum())
    text = (f"relative tol {hits}/{len(r)} ({', '.join(f'{v:.0f}' for v in r['numerical_rank'])}); "
            f"Gavish-Donoho {gd}/{len(r)}")
    if {"rank_tol1e_2", "gap_rank"} <= set(r.columns):
        text += (f"; tol 1e-2 {int((r['rank_tol1e_2'] == r['r_star']).sum())}/{len(r)}, "
                 f"largest gap {int((r['gap_rank'] == r['r_star']).sum())}/{len(r)}")
        misses = r[~exact]
        if len(misses):
            text += "; misses: " + ", ".join(
                f"r*={int(m.r_star)} min sigma_min(V*) {m.v_sigma_min:.3f}"
                for m in misses.itertuples())
    return text, fraction_verdict(hits, len(r))


def _t4_tracks(teacher: str, estimator: str) -> Callable[[pd.DataFrame], Outcome]:
    def evaluate(t4: pd.DataFrame) -> Outcome:
        r = _t4(teacher, estimator)(t4)
        ok = (r["reff_energy"] - r["teacher_reff_energy"]).abs() <= 0.05 * r["teacher_reff_energy"]
        return (", ".join(f"{a:.0f}:{b:.2f}" for a, b in zip(r["r_star"], r["reff_energy"])),
                fraction_verdict(int(ok.sum()), len(r)))
    return evaluate


def _t4_linear_mixer(t4: pd.DataFrame) -> Outcome:
    r = _t4("linear_qk", "realized_mixer")(t4)
    lo, hi = float(r["reff_energy"].min()), float(r["reff_energy"].max())
    # "saturates at ~16": the realized mixer's R~eff caps at the token count T = 16
    return f"{lo:.2f}-{hi:.2f}", (REPRODUCED if lo >= 14 and hi <= P.E4_LINEAR_MIXER + 0.5 else
                                  PARTLY if lo >= 10 else NOT_REPRODUCED)


def _t4_softmax_rank(t4: pd.DataFrame) -> Outcome:
    r = _t4("softmax_qk", "v_known")(t4)
    lo, hi = float(r["numerical_rank"].min()), float(r["numerical_rank"].max())
    verdict = (REPRODUCED if lo >= P.E4_SOFTMAX_RANK[0] and hi <= P.E4_SOFTMAX_RANK[1] else
               PARTLY if (r["numerical_rank"] > 2 * r["r_star"]).all() else NOT_REPRODUCED)
    return f"{lo:.1f}-{hi:.1f}", verdict


def _t4_softmax_kernel_r1(t4: pd.DataFrame) -> Outcome:
    r = _t4("softmax_qk", "v_known")(t4)
    r = r[r["r_star"] == 1]
    if r.empty:
        return "r* = 1 not run", NOT_RUN
    value = float(r["reff_energy"].iloc[0])
    gap = abs(value - P.E4_SOFTMAX_KERNEL_R1)
    return f"{value:.3f}", (REPRODUCED if gap <= 0.25 else PARTLY if value > 1.1
                            else NOT_REPRODUCED)


def _t4_softmax_mixer(t4: pd.DataFrame) -> Outcome:
    r = _t4("softmax_qk", "realized_mixer")(t4)
    values = r["reff_energy"].to_numpy()
    monotone = bool((np.diff(values) > 0).all())
    lo, hi = values[0], values[-1]
    a, b = P.E4_SOFTMAX_MIXER
    close = abs(lo - a) <= 0.25 * a and abs(hi - b) <= 0.25 * b
    verdict = REPRODUCED if monotone and close else (PARTLY if monotone else NOT_REPRODUCED)
    return f"{lo:.2f} -> {hi:.2f} ({'monotone' if monotone else 'not monotone'})", verdict


CLAIMS += [
    Claim("E4.linear.numerical_rank", "E4", "Section 6, Table 4",
          "linear, V known: numerical rank of K_hat = r* exactly", "6/6",
          "relative-tol rank = r* for every r* (seed mean)",
          "table4_predictability.numerical_rank", _t4_linear_rank),
    Claim("E4.linear.v_known_energy", "E4", "Section 6, Table 4",
          "linear, V known: R~eff(K_hat) tracks r*", "6/6",
          "|R~eff(K_hat) - R~eff(K*)| <= 5% for every r*",
          "table4_predictability.reff_energy", _t4_tracks("linear_qk", "v_known")),
    Claim("E4.linear.v_unknown_energy", "E4", "Section 6, Table 4",
          "linear, V unknown (ALS): R~eff(K_hat) tracks r* at d = 32", "6/6",
          "|R~eff(K_hat) - R~eff(K*)| <= 5% for every r*",
          "table4_predictability.reff_energy", _t4_tracks("linear_qk", "als")),
    Claim("E4.linear.realized_mixer", "E4", "Section 6, Table 4",
          "linear: realized-mixer R~eff saturates", f"~{P.E4_LINEAR_MIXER:g}",
          "all r* in [14, 16.5] (partly: all >= 10)", "table4_predictability.reff_energy",
          _t4_linear_mixer),
    Claim("E4.softmax.numerical_rank", "E4", "Section 6, Table 4",
          "softmax, V known: numerical rank saturates", P.span(P.E4_SOFTMAX_RANK),
          "all r* in [17, 23] (partly: all > 2 r*)", "table4_predictability.numerical_rank",
          _t4_softmax_rank),
    Claim("E4.softmax.kernel_r1", "E4", "Section 6, Table 4",
          "softmax: kernel-side R~eff over-estimates at r* = 1", f"{P.E4_SOFTMAX_KERNEL_R1}",
          "within 0.25 (partly: over-estimates, > 1.1)", "table4_predictability.reff_energy",
          _t4_softmax_kernel_r1),
    Claim("E4.softmax.realized_mixer", "E4", "Section 6, Table 4",
          "softmax: realized-mixer R~eff monotone in r*",
          f"{P.E4_SOFTMAX_MIXER[0]:.2f} -> {P.E4_SOFTMAX_MIXER[1]:.2f}",
          "monotone and both ends within 25% (partly: monotone)",
          "table4_predictability.reff_energy", _t4_softmax_mixer),
]


def _stat_row(t6: pd.DataFrame, name: str) -> pd.Series | None:
    hit = t6[t6["stat"] == name]
    return None if hit.empty else hit.iloc[0]


def _t6_judge(name: str, judge: Callable[[pd.Series], Outcome]) -> Callable[[pd.DataFrame],
                                                                             Outcome]:
    def evaluate(t6: pd.DataFrame) -> Outcome:
        row = _stat_row(t6, name)
        if row is None or not np.isfinite(row["value"]):
            return "-", NOT_RUN
        return judge(row)
    return evaluate


def _t6_predictor(paper: float) -> Callable[[pd.Series], Outcome]:
    """Reproduced within 0.15 of the paper's (negative) correlation; partly when |r| < 0.3 (the
    predictor fails, but without the anti-correlation); not reproduced otherwise."""
    def judge(row: pd.Series) -> Outcome:
        r = float(row["value"])
        return f"{r:+.3f} (n = {row['n']})", (REPRODUCED if abs(r - paper) <= 0.15 else
                                              PARTLY if abs(r) < 0.3 else NOT_REPRODUCED)
    return judge


UNMOVED = 0.30  # static Reff within 30% of its initial value: the budget has not shaped it


def _t6_cv_seed(t6: pd.DataFrame) -> Outcome:
    """The cells' CV_seed range must overlap the published [0.006, 0.087] (an untrained network
    already has max <= 0.10, so that alone proves nothing); reproduced when it also stays <= 0.10.
    The text gives how far training moved the static Reff from initialisation; when no cell
    moved by 30% the seeds' agreement is the initialisation's, and the claim is not comparable."""
    row = _stat_row(t6, "cv_seed_max")
    if row is None or not np.isfinite(row["value"]):
        return "-", NOT_RUN
    lo, hi = float(row["lo"]), float(row["hi"])
    a, b = P.E6_CV_SEED
    overlap = lo <= b and hi >= a
    text = f"[{lo:.3f}, {hi:.3f}]"
    drop = _stat_row(t6, "static_drop")
    if drop is not None:
        text += (f"; static Reff below its initial value by {100 * drop['lo']:.0f}-"
                 f"{100 * drop['hi']:.0f}% (median {100 * drop['value']:.0f}%)")
        if max(abs(drop["lo"]), abs(drop["hi"])) < UNMOVED:
            return text, NOT_COMPARABLE
    return text, (REPRODUCED if overlap and hi <= 0.10 else PARTLY if overlap
                  else NOT_REPRODUCED)


def _t6_loss_rank(t6: pd.DataFrame) -> Outcome:
    """Judged within each d_model (pooled over sizes, width drives both loss and rank):
    reproduced when every size has r <= -0.5, partly when the sizes' mean r is negative."""
    rows = t6[t6["stat"].str.match(r"pearson_loss_vs_static_d\d+$")]
    rows = rows[np.isfinite(rows["value"])]
    if rows.empty:
        return "-", NOT_RUN
    values = rows["value"].to_numpy()
    pooled = _stat_row(t6, "pearson_loss_vs_static")
    text = ", ".join(f"{s.removeprefix('pearson_loss_vs_static_')} {v:+.3f}"
                     for s, v in zip(rows["stat"], values))
    if pooled is not None:
        text += f" (pooled {float(pooled['value']):+.3f}, not judged)"
    return text, (REPRODUCED if (values <= -0.5).all() else PARTLY if values.mean() < 0
                  else NOT_REPRODUCED)


def _t6_layers(t6: pd.DataFrame) -> Outcome:
    l0 = _stat_row(t6, "largest_layer0_static_reff")
    l1 = _stat_row(t6, "largest_layer1_static_reff")
    if l0 is None or l1 is None:
        return "-", NOT_RUN
    overlap0 = l0["lo"] <= P.E6_LAYER0_REFF[1] and l0["hi"] >= P.E6_LAYER0_REFF[0]
    overlap1 = l1["lo"] <= P.E6_LAYER1_REFF[1] and l1["hi"] >= P.E6_LAYER1_REFF[0]
    ordered = l1["value"] > l0["value"]
    text = f"layer 0 {l0['lo']:.1f}-{l0['hi']:.1f}, layer 1 {l1['lo']:.1f}-{l1['hi']:.1f}"
    inits = [_stat_row(t6, f"largest_layer{k}_static_reff_init") for k in (0, 1)]
    if all(i is not None for i in inits):
        moved = [abs(row["value"] - i["value"]) / i["value"] for row, i in zip((l0, l1), inits)]
        text += f" (initial {inits[0]['value']:.1f} / {inits[1]['value']:.1f})"
        if max(moved) < UNMOVED:
            return text + f": within {UNMOVED:.0%} of initialisation", NOT_COMPARABLE
    return text, (REPRODUCED if overlap0 and overlap1 and ordered else
                  PARTLY if ordered else NOT_REPRODUCED)


def _t6_no_relation(row: pd.Series) -> Outcome:
    r = float(row["value"])
    return f"{r:+.3f}", REPRODUCED if abs(r) <= 0.3 else (PARTLY if abs(r) <= 0.5
                                                          else NOT_REPRODUCED)


REALIZED = ("mean_attn_reff", "per_input_reff", "participation", "whitened_reff")


def _t6_cv_corpora(t6: pd.DataFrame) -> Outcome:
    rows = [_stat_row(t6, f"cv_across_corpora_{m}") for m in REALIZED]
    pred = _stat_row(t6, "cv_across_corpora_predicted_rank")
    if pred is None or any(r is None for r in rows):
        return "-", NOT_RUN
    hi = max(float(r["hi"]) for r in rows)
    lo = min(float(r["lo"]) for r in rows)
    below = hi < float(pred["value"])
    text = f"realized {lo:.3f}-{hi:.3f} vs predictor {float(pred['value']):.3f}"
    return text, (REPRODUCED if below and hi <= 0.25 else PARTLY if below else NOT_REPRODUCED)


def _t6_ridge(t6: pd.DataFrame) -> Outcome:
    """Binding: numerical rank = embedding width at the configured tolerance; the text adds
    the rank range at each reported tolerance and the Reff range."""
    row = _stat_row(t6, "ridge_full_rank_corpora")
    if row is None:
        return "-", NOT_RUN
    full, n = int(row["value"]), int(row["n"])
    text = f"{full} of {n} full rank (Reff {row['lo']:.1f}-{row['hi']:.1f})"
    for _, tol in t6[t6["stat"].str.startswith("ridge_rank_tol")].iterrows():
        level = tol["stat"].removeprefix("ridge_rank_tol")
        text += f"; rank at {level}: {tol['lo']:.0f}-{tol['hi']:.0f}"
    return text, fraction_verdict(full, n)


def _t6_repeat(row: pd.Series) -> Outcome:
    k = int(row["value"])
    return f"{k} of {int(row['n'])}", (REPRODUCED if k == P.E6_REPEAT_SEPARATED else
                                       PARTLY if abs(k - P.E6_REPEAT_SEPARATED) == 1
                                       else NOT_REPRODUCED)


CLAIMS += [
    Claim("E6.predicted_vs_measured.pearson", "E6", "App. B",
          "data-side predicted rank vs measured static rank, across corpus x size cells",
          f"Pearson {P.E6_PREDICTED_PEARSON} (wrong sign)",
          "reproduced within 0.15 of the paper; partly if |r| < 0.3", "table6_stats.value",
          _t6_judge("pearson_predicted_vs_static", _t6_predictor(P.E6_PREDICTED_PEARSON))),
    Claim("E6.predicted_vs_measured.spearman", "E6", "App. B",
          "data-side predicted rank vs measured static rank (Spearman)",
          f"{P.E6_PREDICTED_SPEARMAN}",
          "reproduced within 0.15 of the paper; partly if |rho| < 0.3",
          "table6_stats.value",
          _t6_judge("spearman_predicted_vs_static", _t6_predictor(P.E6_PREDICTED_SPEARMAN))),
    Claim("E6.cv_seed", "E6", "App. B (i)", "CV_seed of the measured rank in every cell",
          P.TABLE6["cv_seed_max"] + ", all < 0.10",
          "range overlaps the published one and max <= 0.10 (partly: overlap only); not "
          f"comparable while every cell's static Reff is within {UNMOVED:.0%} of its initial value",
          "table6_stats.hi", _t6_cv_seed),
    Claim("E6.loss_vs_rank", "E6", "App. B (ii)", "final loss vs measured Reff across cells",
          f"Pearson {P.E6_LOSS_PEARSON}",
          "within each d_model: every r <= -0.5 (partly: mean r < 0)", "table6_stats.value",
          _t6_loss_rank),
    Claim("E6.layer_ranges", "E6", "App. B (iii)",
          "largest model: layer 0 Reff vs layer 1 Reff (static kernel, per corpus)",
          f"{P.TABLE6['largest_layer0_static_reff']} vs {P.TABLE6['largest_layer1_static_reff']}",
          "both ranges overlap the published ones and layer 1 > layer 0 (partly: ordering "
          f"only); not comparable while both layers are within {UNMOVED:.0%} of their initial "
          "Reff", "table6_stats.value", _t6_layers),
    Claim("E6.h1_vs_ffn", "E6", "App. B (iii)", "Pearson(H1, FFN stable rank)",
          f"{P.E6_H1_FFN_PEARSON}", "|r| <= 0.3 (partly <= 0.5)", "table6_stats.value",
          _t6_judge("pearson_h1_vs_ffn_stable_rank", _t6_no_relation)),
    Claim("E6.cv_across_corpora", "E6", "App. B",
          "CV across corpora of every realized measure vs the data-side predictor",
          f"{P.span(P.E6_CV_REALIZED)} vs {P.E6_CV_PREDICTOR}",
          "all realized CVs below the predictor's and <= 0.25 (partly: below the predictor's)",
          "table6_stats.value", _t6_cv_corpora),
    Claim("E6.ridge_full_rank", "E6", "App. B",
          "fixed-random-embedding ridge operator collapses to full rank", "every corpus",
          "numerical rank = embedding width for every corpus", "table6_stats.value", _t6_ridge),
    Claim("E6.repeat_separates_one", "E6", "App. B",
          "token-space repeat operator separates corpora", "one of six",
          "exactly one corpus with |leave-one-out z| > 3 of its Reff (partly: 0 or 2)",
          "table6_stats.value", _t6_judge("repeat_separated_corpora", _t6_repeat)),
]


def evaluate_claims(tables: Tables, claims: list[Claim] = CLAIMS) -> pd.DataFrame:
    """One row per claim: id, kind, where, statement, published, rule, column, reproduced,
    verdict."""
    rows = []
    for c in claims:
        table = tables.get(c.table)
        if table is None or table.empty:
            reproduced, verdict = "-", NOT_RUN
        else:
            reproduced, verdict = c.evaluate(table)
        rows.append({"id": c.id, "kind": c.kind, "experiment": c.experiment,
                     "location": c.location,
                     "statement": c.statement, "published": c.published, "rule": c.rule,
                     "column": c.column, "reproduced": reproduced, "verdict": verdict})
    return pd.DataFrame(rows)


def load_tables(paths: list[str]) -> dict[str, pd.DataFrame]:
    """Parquet files keyed by file stem (``results/tables/table3.parquet`` -> ``table3``)."""
    return {Path(p).stem: read_parquet(p) for p in paths}


def write_claims(table_paths: list[str], out: str) -> pd.DataFrame:
    claims = evaluate_claims(load_tables(table_paths))
    write_parquet(out, claims)
    return claims
