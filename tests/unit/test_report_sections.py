"""Report sections computed from constructed tables: App. B's static Reff from initialisation
to the kept weights, and the audit's outcomes (a difference is shown, not dropped)."""

from __future__ import annotations

import pandas as pd
import pytest

from entropic_bound.reporting.sections import section_audit, static_reff_drop


def test_the_static_reff_drop_is_one_minus_kept_over_initial_per_width_and_layer():
    rows = []
    for corpus, scale in (("a", 1.0), ("b", 3.0)):
        for layer in (0, 1):
            # step 0, a checkpoint, the kept weights (final): Reff 8 -> 6 -> 4 (layer 0) and
            # 8 -> 8 -> 8 (layer 1), scaled per corpus, two heads each
            for step, final, reff in ((0, False, 8.0), (100, False, 6.0 if not layer else 8.0),
                                      (100, True, 4.0 if not layer else 8.0)):
                for head in (0, 1):
                    rows.append({"corpus": corpus, "d_model": 64, "layer": layer,
                                 "step": step, "final": final, "head": head,
                                 "static_reff": scale * reff})
    drop = static_reff_drop(pd.DataFrame(rows)).set_index("layer")
    assert drop.loc[0, "static_reff_init"] == pytest.approx(16.0)  # mean of 8 and 24
    assert drop.loc[0, "static_reff_kept"] == pytest.approx(8.0)
    assert drop.loc[0, "drop"] == pytest.approx(0.5)
    assert drop.loc[1, "drop"] == pytest.approx(0.0)


def test_the_audit_section_counts_agreements_and_shows_a_difference():
    audit = pd.DataFrame({
        "key": ["a" * 64, "b" * 64, "c" * 64], "experiment": ["e3", "e6", "e1"],
        "command": ["train-grid", "train-lm", "train-fixed"],
        "exact_required": [True, False, True], "max_abs_diff": [0.0, 0.5, float("inf")],
        "max_rel_diff": [0.0, 0.1, float("inf")], "ok": [True, False, False],
        "detail": ["", "largest difference at x.parquet:val_loss",
                   "the command failed (exit 2): no native bf16"],
        "recomputed": [True, True, False], "seed": [4, 4, 4],
        "comparison": ["bit for bit", "E6 losses within 2 seed standard deviations", ""],
        "margin": [0.0, 3.1, float("inf")]})
    sec = section_audit({"audit": audit})
    assert "seed 4" in sec.intro and "1 of 3 agree" in sec.intro
    assert "a training entry where one fits the budget: e1, e3, e6" in sec.intro
    shown = sec.tables[0][1].set_index("experiment")
    assert shown.loc["e3", "outcome"] == "identical" and shown.loc["e6", "outcome"] == "DIFFERS"
    assert shown.loc["e1", "outcome"] == "not recomputed"
    assert shown.loc["e3", "comparison"] == "bit for bit"
    assert shown.loc["e6", "entry"] == "b" * 12 and sec.anchor == "audit"
    within = audit.assign(ok=[True, True, False])
    assert section_audit({"audit": within}).tables[0][1].set_index("experiment").loc[
        "e6", "outcome"] == "agrees within the machine tolerance"


def test_an_audit_with_no_entry_of_this_run_says_so():
    empty = pd.DataFrame(columns=["key", "experiment", "command", "exact_required",
                                  "max_abs_diff", "max_rel_diff", "ok", "detail", "recomputed",
                                  "seed", "comparison", "margin"])
    sec = section_audit({"audit": empty})
    assert "No entry" in sec.intro and sec.tables == []
