"""How firm a verdict is (entropic_bound.claims.firmness), on constructed evidence where one
seed or one corpus flips a verdict, and where none does."""

from __future__ import annotations

import pandas as pd
import pytest

from entropic_bound.claims.firmness import (
    FIRM,
    NOT_FIRM,
    ONE_CORPUS,
    ONE_SEED,
    Evidence,
    firmness_table,
    resample_seeds,
)
from entropic_bound.claims.rules import NOT_REPRODUCED, REPRODUCED, Claim


def positive_mean(table: pd.DataFrame) -> tuple[str, str]:
    value = float(table["x"].iloc[0])
    return f"{value:+.2f}", REPRODUCED if value > 0 else NOT_REPRODUCED


CLAIM = Claim("T.mean", "T", "here", "the mean is positive", "> 0", "mean > 0", "t.x",
              positive_mean)


def mean_table(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return pd.DataFrame({"x": [frames["cells"]["x"].mean()]})


def judged(unit: str, values: list[float]) -> dict:
    frame = pd.DataFrame({unit: range(len(values)), "x": values})
    if unit == "corpus":
        frame["corpus"] = [f"c{i}" for i in range(len(values))]
    evidence = Evidence("t", {"cells": frame}, mean_table, unit)
    verdict = positive_mean(mean_table({"cells": frame}))[1]
    return firmness_table([CLAIM], {"t": evidence}, {CLAIM.id: verdict}).iloc[0].to_dict()


def test_a_verdict_every_seed_agrees_on_is_firm():
    row = judged("seed", [1.0, 1.2, 0.9, 1.1, 1.0])
    assert row["firmness"] == FIRM
    assert row["firmness_detail"].startswith("100 of 100 seed resamples give reproduced")


def test_a_verdict_one_seed_decides_rests_on_that_seed():
    row = judged("seed", [1.0, 1.0, 1.0, 1.0, -10.0])  # the mean is negative because of seed 4
    assert row["firmness"] == ONE_SEED
    assert "leaving out seed 4 (reproduced) changes it" in row["firmness_detail"]
    assert "seed 0" not in row["firmness_detail"]


def test_a_verdict_resamples_split_without_one_deciding_seed_is_not_firm():
    # mean +0.045 and still positive without any one seed; a resample that draws the last
    # seed twice (about a quarter of them) is negative
    row = judged("seed", [0.2] * 10 + [-1.5])
    assert row["firmness"] == NOT_FIRM, row
    assert "no seed left out changes it" in row["firmness_detail"]


def test_a_verdict_one_corpus_decides_rests_on_that_corpus():
    row = judged("corpus", [1.0, 1.0, 1.0, 1.0, 1.0, -10.0])
    assert row["firmness"] == ONE_CORPUS
    assert row["firmness_detail"].startswith("leaving out c5 (reproduced) changes it")
    assert "without c5: +1.00" in row["firmness_detail"]


def test_a_verdict_no_corpus_decides_is_firm():
    row = judged("corpus", [1.0, 2.0, 1.5, 0.5, 1.0, 3.0])
    assert row["firmness"] == FIRM and "without c0: +1.60" in row["firmness_detail"]


def both(values: dict[tuple[str, int], float]) -> dict:
    """E7's evidence (unit seed+corpus): one x per (corpus, seed)."""
    frame = pd.DataFrame([{"corpus": c, "seed": s, "x": x} for (c, s), x in values.items()])
    evidence = Evidence("t", {"cells": frame}, mean_table, "seed+corpus")
    verdict = positive_mean(mean_table({"cells": frame}))[1]
    return firmness_table([CLAIM], {"t": evidence}, {CLAIM.id: verdict}).iloc[0].to_dict()


def test_a_verdict_judged_on_seeds_and_corpora_is_firm_only_where_both_are():
    steady = {(c, s): 1.0 for c in "abcdef" for s in range(3)}
    row = both(steady)
    assert row["firmness"] == FIRM
    assert row["firmness_detail"].startswith("across seeds: 100 of 100 seed resamples")
    assert "; across corpora: the same verdict with any one corpus left out" in \
        row["firmness_detail"]
    one_corpus = {**steady, **{("f", s): -10.0 for s in range(3)}}  # mean -0.83 because of f
    row = both(one_corpus)
    assert row["firmness"] == ONE_CORPUS and "leaving out f (reproduced)" in \
        row["firmness_detail"]
    one_seed = {**steady, **{(c, 2): -4.0 for c in "abcdef"}}  # mean -0.67 because of seed 2
    assert both(one_seed)["firmness"] == ONE_SEED


def test_a_resample_draws_the_same_seeds_in_every_frame_and_within_each_setting():
    cells = pd.DataFrame({"seed": [0, 1, 2, 0, 1, 2], "setting": list("aaabbb"),
                          "x": [0, 1, 2, 10, 11, 12]})
    estimates = cells.rename(columns={"x": "y"})
    drawn = resample_seeds({"cells": cells, "estimates": estimates}, seed=0, draw=3)
    assert drawn["cells"]["x"].tolist() == drawn["estimates"]["y"].tolist()
    for setting, rows in drawn["cells"].groupby("setting"):
        assert sorted(rows["seed"]) == [0, 1, 2]  # the labels stay, the evidence is redrawn
        assert set(rows["x"]) <= ({0, 1, 2} if setting == "a" else {10, 11, 12})
    assert any(resample_seeds({"cells": cells}, 0, d)["cells"]["x"].tolist()
               != cells["x"].tolist() for d in range(5))


@pytest.mark.parametrize("unit, reading", [("seed", ONE_SEED), ("corpus", ONE_CORPUS)])
def test_a_verdict_on_one_seed_or_corpus_rests_on_it(unit, reading):
    row = judged(unit, [1.0])
    assert row["firmness"] == reading and row["firmness_detail"] == f"judged on one {unit} only"


@pytest.mark.parametrize("verdict", ["not run", None])
def test_a_claim_not_run_gets_no_firmness(verdict):
    frame = pd.DataFrame({"seed": [0, 1], "x": [1.0, 1.0]})
    table = firmness_table([CLAIM], {"t": Evidence("t", {"cells": frame}, mean_table, "seed")},
                           {} if verdict is None else {CLAIM.id: verdict})
    assert table.iloc[0]["firmness"] == ""


def test_firmness_judged_in_processes_equals_in_this_process():
    """Each table's evidence in a process of its own (``jobs``): the same rows, in claim
    order, whatever the number of processes; a closure as the table's build (which would not
    pickle) works there too."""
    offset = 0.0  # read through the closure
    claims, evidence, verdicts = [], {}, {}
    for n, values in enumerate([[1.0, 1.2, 0.9], [1.0, 1.0, -10.0], [0.2] * 10 + [-1.5]]):
        claim = Claim(f"T{n}.mean", "T", "here", "positive", "> 0", "mean > 0", f"t{n}.x",
                      positive_mean)
        frame = pd.DataFrame({"seed": range(len(values)), "x": values})
        evidence[f"t{n}"] = Evidence(f"t{n}", {"cells": frame},
                                     lambda f: mean_table(f) + offset, "seed")
        claims.append(claim)
        verdicts[claim.id] = positive_mean(mean_table({"cells": frame}) + offset)[1]
    alone = firmness_table(claims, evidence, verdicts, jobs=1)
    pd.testing.assert_frame_equal(firmness_table(claims, evidence, verdicts, jobs=2), alone)
    assert alone["id"].tolist() == ["T0.mean", "T1.mean", "T2.mean"]
    assert alone["firmness"].tolist() == [FIRM, ONE_SEED, NOT_FIRM]
