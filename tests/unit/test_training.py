"""Students and training: gradients, fast-vs-naive agreement, reaching the noise floor."""

import numpy as np
import pandas as pd
import pytest
import torch
from conftest import schema_defaults

from entropic_bound.data.datasets import write_dataset
from entropic_bound.data.teachers import TeacherSpec, generate
from entropic_bound.measures.grid import measure_dataset
from entropic_bound.models.students import init_qk, qk_forward
from entropic_bound.training.fast import QKBatch, train_fast
from entropic_bound.training.grid import GridTraining, train_dataset
from entropic_bound.training.loop import (
    TrainingDiverged,
    convergence_columns,
    evaluate,
    mse,
    tail_start,
    train_adam,
)


@pytest.mark.parametrize("kind", ["linear_qk", "softmax_qk"])
@pytest.mark.parametrize("rank", [2, 7])  # gram order and kernel order for the linear student
def test_fast_gradients_match_autograd(kind, rank):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(37, 5, 6, generator=g, dtype=torch.float64)
    y = torch.randn(37, 5, 6, generator=g, dtype=torch.float64)
    wq, wk = (torch.randn(2, 6, rank, generator=g, dtype=torch.float64) for _ in range(2))
    v = torch.randn(2, 6, 6, generator=g, dtype=torch.float64)
    loss, gq, gk, gv = QKBatch(kind, x, y, rank, chunk=10).loss_and_grads(wq, wk, v)
    for b in range(2):
        params = [t[b].clone().requires_grad_() for t in (wq, wk, v)]
        ref = mse(qk_forward(kind, x, *params), y)
        ref.backward()
        assert float(loss[b]) == pytest.approx(float(ref.detach()), rel=1e-12)
        for mine, p in zip((gq, gk, gv), params):
            assert torch.allclose(mine[b], p.grad, rtol=1e-10, atol=1e-12)


def test_padded_students_train_exactly_as_alone():
    """Zero-padded rank columns get zero gradient, so a batch equals separate runs."""
    spec = TeacherSpec("softmax_qk", T=5, d=6, r_star=2, n=64, sigma=0.05, seed=3)
    data = generate(spec)
    x = torch.tensor(data["X"], dtype=torch.float32)
    y = torch.tensor(data["Y"], dtype=torch.float32)
    inits = [init_qk(6, r, 0, 0) for r in (1, 3)]
    batch = train_fast("softmax_qk", inits, x, y, steps=50, lr=1e-2, log_every=50, chunk=64)
    for init, got in zip(inits, batch.params):
        alone = train_fast("softmax_qk", [init], x, y, steps=50, lr=1e-2, log_every=50,
                           chunk=64).params[0]
        for k in got:
            assert np.allclose(got[k], alone[k], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["linear_qk", "softmax_qk"])
def test_fast_and_naive_trainers_agree(tmp_path, kind):
    spec = TeacherSpec(kind, T=6, d=6, r_star=2, n=128, sigma=0.05, seed=0)
    write_dataset(spec, tmp_path / "d.npz")
    out = {}
    for trainer in ("naive", "fast"):
        cfg = GridTraining(**{**schema_defaults("e3", "train"), "sweep_steps": 150,
                              "recovery_steps": 200, "trainer": trainer, "chunk": 50})
        w, m = tmp_path / f"{trainer}.npz", tmp_path / f"{trainer}.parquet"
        train_dataset(str(tmp_path / "d.npz"), str(w), str(m), cfg)
        out[trainer] = measure_dataset(str(tmp_path / "d.npz"), str(w), str(m),
                                       str(tmp_path / f"{trainer}.measures.parquet"),
                                       tol=schema_defaults("spectra")["tol"])
    naive, fast = out["naive"], out["fast"]
    assert (naive["r"] == fast["r"]).all()
    assert np.allclose(fast["loss"], naive["loss"], rtol=1e-4)
    assert np.allclose(fast["reff_energy"], naive["reff_energy"], atol=1e-3)


def test_rank_r_star_student_reaches_the_noise_floor_and_deficient_one_does_not():
    spec = TeacherSpec("linear_qk", T=6, d=6, r_star=2, n=512, sigma=0.05, seed=1)
    data = generate(spec)
    x = torch.tensor(data["X"], dtype=torch.float32)
    y = torch.tensor(data["Y"], dtype=torch.float32)

    def fwd(xx, WQ, WK, V):
        return qk_forward("linear_qk", xx, WQ, WK, V)

    excess = {}
    for r in (1, 2):
        res = train_adam(fwd, init_qk(6, r, 1, 0), x, y, steps=800, lr=1e-2)
        excess[r] = evaluate(fwd, res.params, data["X"], data["Y"]) - spec.noise_floor
    floor = spec.noise_floor
    assert abs(excess[2]) < 0.01 * floor, excess
    assert excess[1] > 0.1 * floor, excess


def test_divergence_raises_a_clear_error():
    x = torch.randn(8, 3, 4)
    y = torch.full((8, 3, 4), float("nan"))
    with pytest.raises(TrainingDiverged, match="loss is nan"):
        train_fast("linear_qk", [init_qk(4, 1, 0, 0)], x, y, steps=3, lr=1e-2, log_every=1,
                   chunk=64)


def test_same_config_and_seed_give_identical_tables(tmp_path):
    spec = TeacherSpec("softmax_qk", T=5, d=6, r_star=1, n=64, sigma=0.05, seed=5)
    write_dataset(spec, tmp_path / "d.npz")
    cfg = GridTraining(**{**schema_defaults("e3", "train"), "sweep_steps": 40,
                          "recovery_steps": 40, "chunk": 16})
    frames = []
    for i in range(2):
        train_dataset(str(tmp_path / "d.npz"), str(tmp_path / f"w{i}.npz"),
                      str(tmp_path / f"m{i}.parquet"), cfg)
        frames.append(pd.read_parquet(tmp_path / f"m{i}.parquet"))
    pd.testing.assert_frame_equal(frames[0], frames[1], check_exact=True)


def test_converged_loss_is_the_mean_of_the_last_tenth_of_steps():
    """Protocol §3b: both trainers average the full-batch loss over the last ceil(10%) of steps."""
    spec = TeacherSpec("linear_qk", T=5, d=6, r_star=2, n=64, sigma=0.05, seed=2)
    data = generate(spec)
    x = torch.tensor(data["X"], dtype=torch.float32)
    y = torch.tensor(data["Y"], dtype=torch.float32)
    init = init_qk(6, 2, 0, 0)

    def fwd(xx, WQ, WK, V):
        return qk_forward("linear_qk", xx, WQ, WK, V)

    naive = train_adam(fwd, init, x, y, steps=95, lr=1e-2, log_every=1)
    fast = train_fast("linear_qk", [init], x, y, steps=95, lr=1e-2, log_every=1, chunk=64)
    assert tail_start(95) == 86  # ceil(9.5) = 10 steps: 86..95
    window = [v for s, v in naive.curve if s >= 86]
    assert len(window) == 10
    assert naive.converged_loss == pytest.approx(np.mean(window), rel=1e-6)
    assert fast.converged_losses[0] == pytest.approx(naive.converged_loss, rel=1e-4)


def test_a_late_spike_is_flagged_and_the_verdict_uses_the_plateau():
    """The case of protocol §3b: plateau at 5e-4 excess, final iterate at 0.077 (floor 1.28)."""
    floor = 1.28
    cols = convergence_columns(floor + 0.077, floor + 5e-4, floor + 4e-4, floor)
    assert cols["spiked"] and cols["excess_converged"] == pytest.approx(5e-4)
    assert cols["excess"] == pytest.approx(0.077) and not cols["unsettled"]
    assert not convergence_columns(floor + 0.01, floor + 0.005, floor, floor)["spiked"]


def test_a_student_without_a_plateau_is_unsettled():
    """The quick-profile case: a window oscillating between excess 40 and 84."""
    floor = 0.16
    cols = convergence_columns(floor + 84, floor + 70, floor + 40, floor)
    assert cols["unsettled"]
    # a deficient student still creeping down (400.5 -> 400) has a plateau for the verdict
    assert not convergence_columns(floor + 400, floor + 400.25, floor + 400, floor)["unsettled"]


@pytest.mark.parametrize("trainer", ["naive", "fast"])
def test_a_finite_but_exploding_loss_is_divergence(trainer):
    """Lr = 100 gives losses ~1e11, finite; the job must fail, naming the
    student and the key, not hand the tables garbage."""
    spec = TeacherSpec("linear_qk", T=5, d=6, r_star=1, n=64, sigma=0.05, seed=0)
    data = generate(spec)
    x = torch.tensor(data["X"], dtype=torch.float32)
    y = torch.tensor(data["Y"], dtype=torch.float32)
    init = init_qk(6, 2, 0, 0)
    with pytest.raises(TrainingDiverged, match=r"student A: loss rose from .*config key 'lr'"):
        if trainer == "naive":
            train_adam(lambda xx, WQ, WK, V: qk_forward("linear_qk", xx, WQ, WK, V), init, x, y,
                       steps=50, lr=100.0, log_every=10, label="student A")
        else:
            train_fast("linear_qk", [init], x, y, steps=50, lr=100.0, log_every=10, chunk=64,
                       labels=["student A"])
