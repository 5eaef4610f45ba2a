"""Claims of E7, the depth-width study of the paper's open problem (iv): "Extend the depth-width
analysis (early layers task-specific, later layers saturating)" (Section 8).

Pre-registered: these rules were committed before any E7 cell was trained (docs/results.md
names the commit), and are judged on ``table7_stats`` (:mod:`entropic_bound.tables.e7`).
A *configuration* is one (depth, d_model); the paper's expectation is about deep models, so
each rule reads the configurations of depth 4 and more (depth 2 is E6's own, where the
expectation already fails: the issue that opened E7 measured it). The binding measure is the
per-head static kernel Reff (E6's binding reading); each other App. B measure is judged by the
same rule as another reading. A claim about trained models is judged only where early stopping
ended every cell (``at_max_steps`` 0 in every configuration read); otherwise its numbers are
printed and it is "not comparable".

* **E7.task_specific** (a): across corpora, the first layer varies more than the last: in a
  configuration, ``cv_across_corpora`` of layer 0 > that of layer depth - 1.
* **E7.saturation** (b): with n_l the corpus mean at layer l (of static Reff / d_head, its
  ceiling; a constant per configuration, so the rule reads the same on the raw means), n rises
  with the layer index, Spearman(l, n_l) >= 0.8 and n_(depth-1) > n_0, and its increments
  shrink: with m = depth // 2, the mean increment over the upper layers, (n_(depth-1) - n_m) /
  (depth - 1 - m), is below the mean increment over the lower ones, (n_m - n_0) / m.
* **E7.first_layer_moves_most** (c): training moves the first layer's kernel furthest from its
  initialisation: the corpus mean of ``static_drop`` (1 - static Reff / its initial value) of
  layer 0 > that of layer depth - 1.
* **E7.depth_helps** (c): deeper is better at one width: at every d_model with three depths or
  more, the corpus-mean held-out loss falls with each added depth (half, partly: the deepest
  below the shallowest, not at every step).

Verdicts over the configurations read: reproduced when every one holds, not reproduced when
none does, partly otherwise (for saturation, a configuration that rises without shrinking
increments counts half: partly). Firmness: across seeds (resampled, each left out) and across
corpora (each left out) (:mod:`entropic_bound.claims.firmness`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from entropic_bound.claims.firmness import Evidence
from entropic_bound.claims.rules import (
    EXTENSION,
    NOT_COMPARABLE,
    NOT_REPRODUCED,
    NOT_RUN,
    PARTLY,
    REPRODUCED,
    Claim,
    Outcome,
    Readings,
)
from entropic_bound.tables.e7 import table7, with_depth

DEEP = 4  # the depth from which a configuration reads the expectation
RISING = 0.8  # Spearman(layer, corpus mean) for "rises with layer index"
BINDING = "static_reff"
OTHER_READINGS = {"mean_attn_reff": "mean-attention Reff", "per_input_reff": "per-input Reff",
                  "participation": "participation", "whitened_reff": "whitened kernel"}
Config = tuple[int, int]  # (depth, d_model)


def _configs(t7: pd.DataFrame) -> list[Config]:
    deep = t7[(t7["stat"] == "corpus_mean") & (t7["depth"] >= DEEP)]
    return sorted({(int(d), int(w)) for d, w in zip(deep["depth"], deep["d_model"])})


def _by_layer(t7: pd.DataFrame, stat: str, config: Config, measure: str) -> pd.Series:
    rows = t7[(t7["stat"] == stat) & (t7["depth"] == config[0]) & (t7["d_model"] == config[1])
              & (t7["measure"] == measure)]
    return rows.set_index(rows["layer"].astype(int))["value"].sort_index()


def _label(config: Config) -> str:
    return f"d{config[1]} L{config[0]}"


def _over_configs(t7: pd.DataFrame, judge: Callable[[pd.DataFrame, Config], tuple[str, float]]
                  ) -> Outcome:
    """Each deep configuration judged (its text, and 1 holds, 0.5 half, 0 fails); the verdict
    over them (the module's doc)."""
    configs = _configs(t7)
    if not configs:
        return "-", NOT_RUN
    judged = [judge(t7, c) for c in configs]
    scores = [score for _, score in judged]
    if any(np.isnan(scores)):
        return "; ".join(text for text, _ in judged), NOT_RUN
    text = "; ".join(f"{_label(c)}: {t}" for c, (t, _) in zip(configs, judged))
    return text, (REPRODUCED if min(scores) == 1 else NOT_REPRODUCED if max(scores) == 0
                  else PARTLY)


def _trained(evaluate: Callable[[pd.DataFrame], Outcome]) -> Callable[[pd.DataFrame], Outcome]:
    """Judged only where early stopping ended every cell of the configurations read."""
    def judged(t7: pd.DataFrame) -> Outcome:
        text, verdict = evaluate(t7)
        if verdict == NOT_RUN:
            return text, verdict
        counts = t7[t7["stat"] == "at_max_steps"]
        late = int(counts["value"].sum())
        if late:
            return (f"{text}; {late} of {int(counts['n'].sum())} cells reached max_steps "
                    "still improving", NOT_COMPARABLE)
        return text, verdict
    return judged


def task_specific(measure: str = BINDING) -> Callable[[pd.DataFrame], Outcome]:
    def judge(t7: pd.DataFrame, config: Config) -> tuple[str, float]:
        cv = _by_layer(t7, "cv_across_corpora", config, measure)
        if len(cv) != config[0]:
            return f"{_label(config)} incomplete", np.nan
        first, last = float(cv.iloc[0]), float(cv.iloc[-1])
        return f"CV first {first:.3f} vs last {last:.3f}", float(first > last)
    return lambda t7: _over_configs(t7, judge)


def saturation(measure: str = BINDING) -> Callable[[pd.DataFrame], Outcome]:
    stat_measure = "static_reff_norm" if measure == BINDING else measure

    def judge(t7: pd.DataFrame, config: Config) -> tuple[str, float]:
        n = _by_layer(t7, "corpus_mean", config, stat_measure)
        depth = config[0]
        if len(n) != depth:
            return f"{_label(config)} incomplete", np.nan
        values = n.to_numpy(dtype=float)
        rho = float(spearmanr(np.arange(depth), values)[0])
        rises = bool(rho >= RISING and values[-1] > values[0])
        m = depth // 2
        lower = (values[m] - values[0]) / m
        upper = (values[-1] - values[m]) / (depth - 1 - m)
        shrinks = bool(upper < lower)
        shown = " ".join(f"{v:.3g}" for v in values)
        return (f"{shown} (Spearman {rho:+.2f}; increments {lower:+.3g} then {upper:+.3g})",
                1.0 if rises and shrinks else 0.5 if rises else 0.0)
    return lambda t7: _over_configs(t7, judge)


def first_layer_moves_most(t7: pd.DataFrame) -> Outcome:
    """The static kernel's drop from initialisation (no other reading has an initial value
    in the tables)."""
    def judge(t7: pd.DataFrame, config: Config) -> tuple[str, float]:
        drop = _by_layer(t7, "corpus_mean", config, "static_drop")
        if len(drop) != config[0]:
            return f"{_label(config)} incomplete", np.nan
        first, last = float(drop.iloc[0]), float(drop.iloc[-1])
        return f"drop first {first:.3f} vs last {last:.3f}", float(first > last)
    return _over_configs(t7, judge)


def depth_helps(t7: pd.DataFrame) -> Outcome:
    loss = t7[t7["stat"] == "val_loss"]
    widths = [w for w, part in loss.groupby("d_model") if part["depth"].nunique() >= 3]
    if not widths:
        return "-", NOT_RUN
    texts, scores = [], []
    for w in widths:
        values = loss[loss["d_model"] == w].set_index("depth")["value"].sort_index()
        falls = values.to_numpy(dtype=float)
        scores.append(1.0 if (np.diff(falls) < 0).all() else 0.5 if falls[-1] < falls[0]
                      else 0.0)
        texts.append(f"d{w}: " + ", ".join(f"L{int(d)} {v:.4f}" for d, v in values.items()))
    return "; ".join(texts), (REPRODUCED if min(scores) == 1 else
                              NOT_REPRODUCED if max(scores) == 0 else PARTLY)


def _readings(rule: Callable[[str], Callable[[pd.DataFrame], Outcome]]) -> Readings:
    def readings(t7: pd.DataFrame) -> dict[str, str]:
        return {name: _trained(rule(m))(t7)[1] for m, name in OTHER_READINGS.items()}
    return readings


EXPECTATION = "Section 8, open problem (iv): early layers task-specific, later layers saturating"
TRAINED = "; judged only where early stopping ended every cell read"
CLAIMS = [
    Claim("E7.task_specific", "E7", "Section 8 (iv)",
          "at depth >= 4, the first layer's static Reff varies more across corpora than the "
          "last layer's", EXPECTATION,
          "every (depth >= 4, d_model): CV across corpora of layer 0 > of the last layer; not "
          "reproduced when none; partly otherwise" + TRAINED, "table7_stats.value",
          _trained(task_specific()), readings=_readings(task_specific), kind=EXTENSION),
    Claim("E7.saturation", "E7", "Section 8 (iv)",
          "at depth >= 4, the static Reff over its ceiling (d_head) rises with the layer "
          "index and its increments shrink", EXPECTATION,
          "every (depth >= 4, d_model): Spearman(layer, corpus mean) >= 0.8, last > first, "
          "and the mean increment over layers depth // 2 .. last below that over 0 .. "
          "depth // 2; not reproduced when none rises; partly otherwise" + TRAINED,
          "table7_stats.value", _trained(saturation()), readings=_readings(saturation),
          kind=EXTENSION),
    Claim("E7.first_layer_moves_most", "E7", "Section 8 (iv)",
          "at depth >= 4, training moves the first layer's static Reff further below its "
          "initial value than the last layer's",
          "expected here, with (iv): the layer that specialises moves most",
          "every (depth >= 4, d_model): corpus-mean static_drop of layer 0 > of the last "
          "layer; not reproduced when none; partly otherwise" + TRAINED, "table7_stats.value",
          _trained(first_layer_moves_most), kind=EXTENSION),
    Claim("E7.depth_helps", "E7", "Section 8 (iv)",
          "at one width, each added depth lowers the held-out loss (corpus mean)",
          "expected here: deeper models fit better at E6's protocol",
          "every d_model with three depths or more: loss strictly falls with each depth; "
          "partly where only the deepest is below the shallowest; not reproduced when the "
          "deepest is not below the shallowest at any" + TRAINED, "table7_stats.value",
          _trained(depth_helps), kind=EXTENSION),
]


def evidence(paths: dict[str, list[str]]) -> dict[str, Evidence]:
    """``table7_stats``'s evidence: the per-head measures of every cell it reads (``e7_measures``:
    E7's cells and E6's of depth 2), judged across seeds (resampled, each left out) and across
    corpora (each left out)."""
    from entropic_bound.plumbing.atomic import read_parquet

    if not paths.get("e7_measures"):
        return {}
    frames = {"measures": with_depth([read_parquet(p) for p in paths["e7_measures"]])}
    return {"table7_stats": Evidence("table7_stats", frames, lambda f: table7(f["measures"])[1],
                                     "seed+corpus")}
