"""The paper's published numbers (docs/protocol.md): the one place they live.

The claims registry judges against these values and the report prints them beside ours; neither
keeps a copy. The paper's table cells were lost in conversion, so only numbers that survive in
its text are here. Each constant names the table or section it comes from.
"""

from __future__ import annotations

# E1 - linear surrogate, Table 1 (Section 4): T = 16, d = 12, r* = 3, spectrum (2, 1.5, 1).
E1_NOISE_FLOOR = 0.48
E1_D = 12
E1_SPECTRUM = (2.0, 1.5, 1.0)
E1_EXCESS = {1: 28.5, 2: 8.8}  # excess at r = 1, 2
E1_EXCESS_AT_R_STAR = 2e-4  # "~2e-4", flat for r > r*
E1_MP_REFF = 2.97  # MP-corrected Reff of the over-parameterised A
E1_DATAONLY_RANK = 3  # exact, V known and V unknown

# E2 - interpolation ladder, Table 2 (Section 5): excess at r* per class.
E2_EXCESS = {"B0": 0.0, "B1": 69.4, "B1c": 69.0, "B2": 68.7, "B3": 51.9}
# ||A*||_F^2 ||V*||_F^2 the published excesses imply: sum lambda^2 = 7.25 times ||V*||_F^2 = 10
# (B1's 69.4 is 96% of it, as for the independent-factor operator).
E2_OPERATOR_ENERGY = 72.5
E2_R_STAR = 3  # Table 2's task: B0 "recovers Reff -> r*" (Section 5)

# E3 - attention-native grid, Table 3 (Section 6, App. C).
E3_NOISE_FLOOR = 1.28
E3_TEACHER_ENERGY = {1: 1.000, 2: 1.649, 3: 2.623, 4: 3.571, 6: 5.448, 8: 7.317}
E3_CV_SEED_MAX = 0.003
E3_EXCESS_BELOW = {"linear_qk": 450.0, "softmax_qk": 2.5}  # excess at r = r* - 1

# E4 - data-only predictability, Table 4 (Section 6).
E4_LINEAR_MIXER = 16.0  # realized-mixer R~eff saturates at ~16
E4_SOFTMAX_RANK = (17, 23)  # V-known numerical rank saturates in this range
E4_SOFTMAX_KERNEL_R1 = 2.31  # kernel-side R~eff at r* = 1
E4_SOFTMAX_MIXER = (1.10, 8.46)  # realized-mixer R~eff at r* = 1 and r* = 8
# the paper's estimators of Table 4 (Section 6: "no single estimator is exact across the whole
# range under softmax")
E4_PAPER_ESTIMATORS = ("v_known", "als", "als_nuclear", "realized_mixer")

# E5 - spectral-gap ablation, Table 5 (App. D): teacher -> recovered R~eff.
E5_TEACHER = {"sharp": 3.571, "power_law": 2.435, "flat": 4.000}
E5_RECOVERED = {"sharp": 3.57, "power_law": 2.44, "flat": 4.00}
E5_TEACHER_PRINTED = {"sharp": 3.57, "power_law": 2.43, "flat": 4.00}

# E6 - real-corpus diagnostics (App. B).
E6_PREDICTED_PEARSON = -0.272
E6_PREDICTED_SPEARMAN = -0.275
E6_CV_SEED = (0.006, 0.087)
E6_LOSS_PEARSON = -0.79
E6_LAYER0_REFF = (13.0, 19.0)  # largest model
E6_LAYER1_REFF = (30.0, 44.0)
E6_H1_FFN_PEARSON = -0.05
E6_CV_REALIZED = (0.06, 0.20)
E6_CV_PREDICTOR = 0.66
E6_REPEAT_SEPARATED = 1  # of six corpora


def span(lo_hi: tuple[float, float], digits: int = 3) -> str:
    """'lo-hi' with ``digits`` significant figures."""
    return f"{lo_hi[0]:.{digits}g}-{lo_hi[1]:.{digits}g}"


# Paper column of the report's tables, keyed by the row label each table uses.
TABLE1 = {"excess_r1": f"{E1_EXCESS[1]}", "excess_r2": f"{E1_EXCESS[2]}",
          "excess_r3": f"~{E1_EXCESS_AT_R_STAR:g}", "recovery_reff_mp": f"{E1_MP_REFF}",
          "dataonly_v_known_numerical_rank": f"{E1_DATAONLY_RANK}",
          "dataonly_v_unknown_numerical_rank": f"{E1_DATAONLY_RANK}",
          "noise_floor": f"{E1_NOISE_FLOOR}"}
TABLE2 = {c: ("~0" if v == 0 else f"{v}") for c, v in E2_EXCESS.items()}
TABLE2_NORMALIZED = {c: f"{v / E2_OPERATOR_ENERGY:.3f}" for c, v in E2_EXCESS.items()}
TABLE3_EXCESS_BELOW = {k: f"~{v:g}" for k, v in E3_EXCESS_BELOW.items()}
TABLE5 = {k: f"{E5_TEACHER_PRINTED[k]:.2f} -> {E5_RECOVERED[k]:.2f}" for k in E5_RECOVERED}
TABLE6 = {
    "pearson_predicted_vs_static": f"{E6_PREDICTED_PEARSON}",
    "spearman_predicted_vs_static": f"{E6_PREDICTED_SPEARMAN}",
    "cv_seed_max": f"[{E6_CV_SEED[0]}, {E6_CV_SEED[1]}]",
    "pearson_loss_vs_static": f"{E6_LOSS_PEARSON}",
    "pearson_h1_vs_ffn_stable_rank": f"{E6_H1_FFN_PEARSON}",
    "largest_layer0_static_reff": span(E6_LAYER0_REFF),
    "largest_layer1_static_reff": span(E6_LAYER1_REFF),
    "cv_across_corpora_predicted_rank": f"{E6_CV_PREDICTOR}",
    **{f"cv_across_corpora_{m}": span(E6_CV_REALIZED) for m in
       ("mean_attn_reff", "per_input_reff", "participation", "whitened_reff")},
    "ridge_full_rank_corpora": "all 6",
    "repeat_separated_corpora": f"{E6_REPEAT_SEPARATED} of 6",
}
