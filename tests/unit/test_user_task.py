"""``entropic-bound estimate-rank`` on a user's task file: r* of teacher data with known r*
(both teachers, V known and unknown), and one clear line for each kind of bad input."""

from __future__ import annotations

import numpy as np
import pytest

from entropic_bound import cli
from entropic_bound.data.teachers import TeacherSpec, generate


def task(tmp_path, kind: str, r_star: int, with_v: bool = True, **over) -> str:
    g = generate(TeacherSpec(kind, T=6, d=8, r_star=r_star, n=600, sigma=0.05, seed=5))
    arrays = {"X": g["X"], "Y": g["Y"], **({"V": g["V"]} if with_v else {}), **over}
    path = tmp_path / "task.npz"
    np.savez(path, **arrays)
    return str(path)


@pytest.mark.parametrize("kind,mixing", [("linear_qk", "linear"), ("softmax_qk", "softmax")])
@pytest.mark.parametrize("with_v", [True, False])
def test_the_held_out_fit_returns_r_star_of_teacher_data(tmp_path, capsys, kind, mixing, with_v):
    cli.main(["estimate-rank", task(tmp_path, kind, 2, with_v), "--mixing", mixing,
              "--out", str(tmp_path / "out.parquet")])
    printed = capsys.readouterr().out
    assert "r_hat = 2 (held-out fit" in printed
    assert ("V known" if with_v else "V unknown") in printed
    from entropic_bound.plumbing.atomic import read_parquet

    rows = read_parquet(tmp_path / "out.parquet").set_index("estimator")
    best = rows.loc["heldout_fit" if with_v else "heldout_fit_als"]
    assert best["estimate"] == 2 and best["z_below"] > 3 >= best["z_at"]
    assert ("v_known" in rows.index) is with_v  # V-known estimators only where V is given


@pytest.mark.parametrize("over,says", [
    ({"Y": np.zeros((600, 6, 7))}, "X has shape (600, 6, 8) and Y (600, 6, 7)"),
    ({"V": np.eye(7)}, "V has shape (7, 7); expected d x d = 8 x 8"),
    ({"Y": np.full((600, 6, 8), np.nan)}, "Y holds 28800 NaN or infinite values"),
    ({"X": np.zeros((5, 6, 8)), "Y": np.zeros((5, 6, 8))}, "n = 5 samples"),
])
def test_bad_input_is_one_line_naming_the_file(tmp_path, caplog, over, says):
    path = task(tmp_path, "softmax_qk", 2, **over)
    with pytest.raises(SystemExit) as stop:
        cli.main(["estimate-rank", path])
    assert stop.value.code == 2
    [record] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert record.getMessage().startswith(path) and says in record.getMessage()


def test_more_tokens_than_dimensions_is_refused_where_a_mixer_is_inverted(tmp_path, caplog):
    rng = np.random.default_rng(0)
    path = tmp_path / "wide.npz"
    np.savez(path, X=rng.standard_normal((50, 9, 4)), Y=rng.standard_normal((50, 9, 4)))
    with pytest.raises(SystemExit):
        cli.main(["estimate-rank", str(path), "--mixing", "softmax"])
    assert "T = 9 > d = 4" in caplog.text and "needs T <= d" in caplog.text
    with pytest.raises(SystemExit):
        cli.main(["estimate-rank", str(tmp_path / "missing.npz")])
    assert "missing.npz: no such file" in caplog.text
