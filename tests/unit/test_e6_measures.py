"""E6 measures on constructed inputs with known answers: attention measures, data-side
quantities, the App. B statistics, and a tiny char Transformer end to end."""

from __future__ import annotations

import hashlib
import json
import math

import numpy as np
import pandas as pd
import pytest
import torch
from conftest import schema_defaults

from entropic_bound.measures import corpus_stats as cs
from entropic_bound.measures import heads as am
from entropic_bound.measures import spectra
from entropic_bound.models.lm import LMShape, build
from entropic_bound.tables.lm import separated, table6
from entropic_bound.training.lm import TrainConfig

SHAPE = schema_defaults("e6", "model")
TRAIN = schema_defaults("e6", "train")

T = 6


def test_one_hot_attention_has_participation_one_and_full_rank():
    attn = np.broadcast_to(np.eye(T), (3, T, T))
    m = am.head_measures(np.eye(4), np.eye(4), attn, np.eye(4))
    assert m["participation"] == pytest.approx(1.0)
    assert m["mean_attn_reff"] == pytest.approx(T) and m["per_input_reff"] == pytest.approx(T)


def test_uniform_causal_attention_participation_is_mean_row_length():
    attn = np.tril(np.ones((T, T)))
    attn /= attn.sum(1, keepdims=True)
    assert am.participation(attn[None]) == pytest.approx((T + 1) / 2)


def test_attention_to_one_token_is_rank_one():
    attn = np.zeros((2, T, T))
    attn[:, :, 0] = 1.0  # every query attends to the first token (an attention sink)
    m = am.head_measures(np.eye(3), np.eye(3), attn, np.eye(3))
    assert m["mean_attn_reff"] == pytest.approx(1.0) and m["per_input_reff"] == pytest.approx(1.0)
    assert m["participation"] == pytest.approx(1.0)


def test_static_and_whitened_kernel_ranks():
    wq = np.eye(4)[:, :2] * 3.0  # W_QK = 3 diag(1, 1, 0, 0): rank 2 through d_head = 2
    m = am.head_measures(wq, np.eye(4)[:, :2], np.broadcast_to(np.eye(T), (1, T, T)), np.eye(4))
    assert m["static_reff"] == pytest.approx(2.0) and m["whitened_reff"] == pytest.approx(2.0)
    # W = I, Sigma = diag(4, 4, 1, 1): W Sigma^1/2 has singular values 2, 2, 1, 1
    w = am.head_measures(np.eye(4), np.eye(4), np.broadcast_to(np.eye(T), (1, T, T)),
                         np.diag([4.0, 4.0, 1.0, 1.0]))["whitened_reff"]
    p = np.array([2, 2, 1, 1]) / 6
    assert w == pytest.approx(math.exp(-(p * np.log(p)).sum()))
    assert am.sqrt_psd(np.diag([9.0, -1e-12])) == pytest.approx(np.diag([3.0, 0.0]))


def test_product_singular_values_are_those_of_the_product():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(40, 5)), rng.normal(size=(30, 5))
    assert spectra.product_singular_values(a, b) == pytest.approx(
        np.linalg.svd(a @ b.T, compute_uv=False)[:5], rel=1e-12)
    square = rng.normal(size=(4, 4))  # no thin factor: the plain SVD
    assert spectra.product_singular_values(square, np.eye(4)) == pytest.approx(
        np.linalg.svd(square, compute_uv=False), rel=1e-12)


CYCLE = np.tile(np.arange(4), 5000).astype(np.uint8)  # 0 1 2 3 0 1 2 3 ...


def test_lag_mi_of_a_deterministic_cycle_is_log_vocab_at_every_lag():
    mi = cs.lag_mutual_information(CYCLE, 4, 8, corrected=False)
    assert mi == pytest.approx(np.full(8, 2.0))  # log2(4) bits
    # Miller-Madow: + ((m_a - 1) + (m_b - 1) - (m_ab - 1)) / (2 N ln 2), here m = 4 everywhere
    pairs = len(CYCLE) - np.arange(1, 9)
    corrected = cs.lag_mutual_information(CYCLE, 4, 8)
    assert corrected - mi == pytest.approx(3 / (2 * pairs * math.log(2)), rel=1e-9)
    from entropic_bound.measures.spectra import entropy_rank

    assert entropy_rank(mi) == pytest.approx(8.0)  # a flat profile predicts rank = K
    assert cs.conditional_entropy_h1(CYCLE, 4) == pytest.approx(0.0, abs=1e-12)


def test_miller_madow_removes_the_plug_in_bias_of_a_large_vocabulary():
    """Independent tokens over 64 symbols, 20k pairs: the plug-in MI is biased up by about
    63^2 / (2 N ln 2) ~ 0.14 bits; the corrected estimate is near its true value, 0."""
    ids = np.random.default_rng(1).integers(0, 64, 20_000).astype(np.uint8)
    plug_in = cs.lag_mutual_information(ids, 64, 4, corrected=False)
    corrected = cs.lag_mutual_information(ids, 64, 4)
    assert (plug_in > 0.1).all()
    assert np.abs(corrected).max() < 0.02


def test_lag_mi_and_h1_of_iid_tokens():
    ids = np.random.default_rng(0).integers(0, 4, 400_000).astype(np.uint8)
    assert cs.lag_mutual_information(ids, 4, 3) == pytest.approx(np.zeros(3), abs=1e-4)
    assert cs.conditional_entropy_h1(ids, 4) == pytest.approx(2.0, abs=1e-3)


def test_ridge_operator_of_a_cycle_has_the_vocabulary_rank():
    w = cs.ridge_operator(CYCLE, 4, dim=16, lam=1e-9, seed=0)
    s = np.linalg.svd(w, compute_uv=False)
    assert (s > 1e-6 * s[0]).sum() == 4  # a permutation of 4 tokens, seen through 16 dims


def test_repeat_operator_of_a_cycle_at_lag_one():
    r = cs.repeat_operator(CYCLE, 4, 1)
    expected = np.roll(np.eye(4), 1, axis=1) - 0.25  # next-token permutation minus marginal
    assert r == pytest.approx(expected)
    assert np.linalg.matrix_rank(r) == 3


def test_separated_flags_only_the_outlier():
    values = pd.Series([1.0, 1.1, 0.9, 1.05, 0.95, 10.0], index=list("abcdef"))
    assert separated(values) == ["f"]


MEASURE_NAMES = ("static_reff", "mean_attn_reff", "per_input_reff", "participation",
                 "whitened_reff")


def test_table6_statistics_on_constructed_cells():
    rows, trajectory = [], []
    corpora_ = {"a": 2.0, "b": 4.0, "c": 8.0}
    for corpus, level in corpora_.items():
        for d in (8, 16):
            for seed in (0, 1):
                # corpus b's seed 1 ran out of steps while improving
                reason = "max_steps" if (corpus, seed) == ("b", 1) else "patience"
                for layer in (0, 1):
                    for head in (0, 1):
                        value = level * (1 + 0.01 * seed) + layer
                        cell = {"corpus": corpus, "d_model": d, "seed": seed,
                                "layer": layer, "head": head}
                        rows.append({**cell, "val_loss": 5.0 - level, "stop_reason": reason,
                                     "stop_step": 100, "tokens_seen": 6400,
                                     "ffn_stable_rank": 3.0, "static_reff_init": 20.0,
                                     **{m: value for m in MEASURE_NAMES}})
                        # at initialisation the corpora differ by 1 % at most
                        trajectory.append({**cell, "step": 0, "final": False,
                                           "ffn_stable_rank": 2.0,
                                           **{m: 10.0 * (1 + 0.001 * level)
                                              for m in MEASURE_NAMES}})
    data_side = pd.DataFrame({"corpus": list(corpora_), "predicted_rank": [3.0, 2.0, 1.0],
                              "h1_bits": [1.0, 2.0, 3.0], "ridge_dim": 4,
                              "ridge_numerical_rank": [4, 4, 3], "ridge_reff": [3.9, 3.8, 2.5],
                              "ridge_rank_numpy": [4, 4, 4], "vocab_size": [30, 70, 50],
                              "repeat_reff": [5.0, 5.1, 5.05]})
    cells, layers, stats, traj = table6(pd.DataFrame(rows), data_side,
                                        pd.DataFrame(trajectory), h1_margin=0.1)
    assert len(traj) == len(trajectory) and "h1_bits" in traj
    # H1 = 1, 2, 3 bits = 0.69, 1.39, 2.08 nats: corpus a (3.0 nats) is not below it; with
    # corpus b's seed 1 (max_steps) 6 of the 12 cells fail the training criterion
    untrained = stats.set_index("stat").loc["untrained_cells"]
    assert untrained[["value", "lo", "hi", "n"]].tolist() == [6, 2, 4, 12]
    assert cells.set_index(["corpus", "d_model"])["trained_seeds"].to_dict() == {
        ("a", 8): 0, ("a", 16): 0, ("b", 8): 1, ("b", 16): 1, ("c", 8): 2, ("c", 16): 2}
    init_cv = stats.set_index("stat").loc["cv_across_corpora_mean_attn_reff_init", "value"]
    assert init_cv == pytest.approx(np.std([1.002, 1.004, 1.008], ddof=1) / 1.00467, rel=1e-3)
    assert stats.set_index("stat").loc["ffn_stable_rank_change", "value"] == pytest.approx(0.5)
    # each layer's drop from its initial static Reff (20): layer 1 sits one above layer 0
    assert np.allclose(layers["static_drop"], 1 - layers["static_reff"] / 20.0)
    s = stats.set_index("stat")["value"]
    assert s["pearson_loss_vs_static"] == pytest.approx(-1.0)
    assert s["spearman_predicted_vs_static"] == pytest.approx(-1.0)
    assert s["ridge_full_rank_corpora"] == 2 and s["repeat_separated_corpora"] == 0
    assert s["ridge_full_rank_numpy_corpora"] == 3
    assert stats.set_index("stat").loc["ridge_dim_over_vocab", ["value", "lo", "hi"]].tolist() \
        == [4, 30, 70]
    assert stats.set_index("stat").loc["largest_layer1_static_reff", "lo"] == \
        pytest.approx(2.0 * 1.005 + 1)
    assert cells["cv_seed"].max() < 0.01 and len(layers) == 3 * 2 * 2
    drop = stats.set_index("stat").loc["static_drop"]
    assert drop["lo"] == pytest.approx(1 - (8 * 1.005 + 0.5) / 20)  # corpus c, the largest
    assert drop["hi"] == pytest.approx(1 - (2 * 1.005 + 0.5) / 20)


def test_char_transformer_is_causal_and_exposes_its_heads():
    shape = LMShape(**{**SHAPE, "context": 8, "heads": 2, "layers": 2})
    model = build(vocab=11, d_model=8, shape=shape, seed=0)
    x = torch.randint(0, 11, (3, 8))
    probe: list = []
    logits = model(x, probe)
    assert logits.shape == (3, 8, 11) and len(probe) == 2
    attn = probe[0]["attn"]
    assert torch.allclose(attn.sum(-1), torch.ones(3, 2, 8))
    assert torch.all(attn.triu(1) == 0)  # no query sees a later token
    y = x.clone()
    y[:, -1] = (y[:, -1] + 1) % 11  # changing the last token leaves earlier outputs unchanged
    assert torch.allclose(model(y)[:, :-1], logits[:, :-1], atol=1e-6)
    wq, wk = model.blocks[0].head_factors(1)
    k = wq @ wk.T  # W_QK
    assert k.shape == (8, 8) and np.linalg.matrix_rank(k) <= 4


@pytest.fixture()
def tiny_corpus(tmp_path):
    from entropic_bound.data.tokens import tokenize_corpus

    rng = np.random.default_rng(0)
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "then", "ran"]
    text = " ".join(rng.choice(words, 3000)) + "\n"
    (tmp_path / "t.txt").write_text(text)
    (tmp_path / "prov.json").write_text(json.dumps({"text_sha256": hashlib.sha256(
        text.encode()).hexdigest()}))
    tokenize_corpus(str(tmp_path / "t.txt"), str(tmp_path / "prov.json"), str(tmp_path / "tok.npz"),
                    str(tmp_path / "meta.json"), max_chars=20_000, val_fraction=0.1)
    return tmp_path


TINY_SHAPE = LMShape(**{**SHAPE, "context": 16})
TINY = {"max_steps": 30, "batch": 8, "log_every": 10, "eval_every": 10, "select_windows": 8,
        "eval_windows": 8, "precision": "fp32"}


def _train(path, tag: str, **overrides):
    from entropic_bound.training.lm import train_lm

    cfg = TrainConfig(**{**TRAIN, **TINY, **overrides})
    return train_lm(str(path / "tok.npz"), str(path / "meta.json"), str(path / f"{tag}.npz"),
                    str(path / f"{tag}.parquet"), str(path / f"{tag}.traj.parquet"),
                    corpus="tiny", d_model=16, seed=3, shape=TINY_SHAPE, cfg=cfg,
                    checkpoints_out=str(path / f"{tag}.ckpt.npz"))


def test_lm_training_learns_is_deterministic_and_measurable(tiny_corpus):
    from entropic_bound.measures.lm import measure_lm

    a, b = _train(tiny_corpus, "a"), _train(tiny_corpus, "b")
    assert a["val_loss"].iloc[0] == b["val_loss"].iloc[0]  # same config and seed: identical
    assert a["val_loss"].iloc[0] < math.log(a["vocab_size"].iloc[0])  # better than uniform
    assert a["stop_reason"].iloc[0] == "max_steps" and a["stop_step"].iloc[0] == 30
    assert list(a["select_step"].iloc[0]) == [0, 10, 20, 30]
    m = measure_lm(str(tiny_corpus / "a.parquet"), str(tiny_corpus / "a.traj.parquet"),
                   str(tiny_corpus / "a.npz"), str(tiny_corpus / "m.parquet"), corpus="tiny",
                   d_model=16, seed=3)
    traj = pd.read_parquet(tiny_corpus / "a.traj.parquet")
    assert len(m) == 2 * 4 and (m["static_reff"] <= 16 / 4 + 1e-9).all()  # rank <= d_head
    # the layer's whole kernel (four heads together) has more room than one head's
    assert (m["layer_kernel_reff"] <= 16 + 1e-9).all()
    assert (m.groupby("layer")["layer_kernel_reff"].nunique() == 1).all()
    # checkpoints at 0, 10, 20 (doubling from eval_every) and the kept weights
    assert sorted(set(traj["step"])) == [0, 10, 20, int(a["best_step"].iloc[0])]
    final = traj[traj["final"]].reset_index(drop=True)
    assert np.array_equal(final["static_reff"], m["static_reff"])
    # the kept weights' held-out loss is the one training reported
    assert final["val_loss"].iloc[0] == pytest.approx(a["val_loss"].iloc[0], abs=1e-6)
    # measured along training (in memory) = measured from the checkpoint file afterwards
    from entropic_bound.data.tokens import load_tokens
    from entropic_bound.data.windows import fixed_windows, split_validation
    from entropic_bound.measures.heads import model_measures
    from entropic_bound.models.checkpoints import checkpoint_prefix, load_model

    arrays, info = load_tokens(str(tiny_corpus / "tok.npz"), str(tiny_corpus / "meta.json"))
    x, y = fixed_windows(split_validation(arrays["val"])[1], 16, TINY["eval_windows"])
    at10 = load_model(str(tiny_corpus / "a.ckpt.npz"), info["vocab_size"], 16, TINY_SHAPE,
                      checkpoint_prefix(10))
    loss, rows = model_measures(at10, x, y)
    along = traj[(traj["step"] == 10) & ~traj["final"]].reset_index(drop=True)
    assert along["val_loss"].iloc[0] == loss
    assert np.array_equal(along["whitened_reff"], [r["whitened_reff"] for r in rows])
    # the step-0 checkpoint is the seed's initialisation
    wq, wk = build(a["vocab_size"].iloc[0], 16, TINY_SHAPE, 3).blocks[0].head_factors(0)
    assert m["static_reff_init"].iloc[0] == pytest.approx(spectra.reff(wq @ wk.T), rel=1e-10)
    assert ((m["participation"] >= 1) & (m["participation"] <= (16 + 1) / 2 + 1e-9)).all()


def test_lm_divergence_names_the_cell_and_the_key(tiny_corpus):
    from entropic_bound.training.loop import TrainingDiverged

    with pytest.raises(TrainingDiverged, match="d_model=16 seed=3.*train section.s lr"):
        _train(tiny_corpus, "nan", lr=1e30, warmup=0.0)


def test_early_stopping_waits_for_an_improvement_of_min_delta():
    from entropic_bound.training.stopping import EarlyStopping

    rule = EarlyStopping(patience=2, min_delta=0.01)
    fired = []
    for step, loss in enumerate([5.0, 4.0, 3.995, 3.992]):
        rule.update(step, loss)
        fired.append(rule.stop)
    # 3.995 and 3.992 are within 0.01 of 4.0: two in a row stop the run at step 3 ...
    assert fired == [False, False, False, True]
    # ... while the kept weights are the plain minimum so far
    assert (rule.best_step, rule.best_loss) == (3, 3.992)
    rule.update(4, 3.95)  # 0.05 below the reference 4.0: the patience starts again
    assert not rule.stop and rule.waited == 0


def test_lm_training_stops_by_patience_and_keeps_the_best_weights(tiny_corpus):
    from entropic_bound.models.checkpoints import checkpoint_prefix
    from entropic_bound.plumbing.atomic import open_npz

    # no improvement can reach min_delta = 10 nats: the first validation after step 0 stops it
    a = _train(tiny_corpus, "p", patience=1, min_delta=10.0)
    assert a["stop_reason"].iloc[0] == "patience" and a["stop_step"].iloc[0] == 10
    assert a["tokens_seen"].iloc[0] == 10 * 8 * 16
    best = int(a["best_step"].iloc[0])
    assert best == int(np.argmin(a["select_loss"].iloc[0])) * 10
    with open_npz(tiny_corpus / "p.npz") as w, open_npz(tiny_corpus / "p.ckpt.npz") as c:
        assert all(np.array_equal(w[k], c[checkpoint_prefix(best) + k]) for k in w.files)


def test_bf16_training_runs_and_is_deterministic(tiny_corpus, monkeypatch):
    from entropic_bound.training import precision

    # the tiny model trains in seconds even where bf16 is emulated: this checks determinism
    monkeypatch.setattr(precision, "SLOW_BF16_RATIO", math.inf)
    a = _train(tiny_corpus, "h", precision="bf16")
    b = _train(tiny_corpus, "i", precision="bf16")
    fp32 = _train(tiny_corpus, "f", precision="fp32")
    assert a["val_loss"].iloc[0] == b["val_loss"].iloc[0]
    assert np.isfinite(a["val_loss"].iloc[0]) and a["val_loss"].iloc[0] != fp32["val_loss"].iloc[0]


def test_an_unknown_precision_names_the_choices():
    with pytest.raises(ValueError, match="precision 'fp16' is not one of fp32, bf16"):
        TrainConfig(**{**TRAIN, "precision": "fp16"})


def test_bf16_without_a_fast_path_trains_through_fp32_products(tiny_corpus, monkeypatch,
                                                                 caplog):
    """On an AVX2 CPU bf16 autocast is emulated (an E6 step at d_model 256 took 7,419 ms against
    310 ms in fp32): the cell trains instead with bf16 products computed as float32 GEMMs, and
    says so; a GPU is never probed."""
    from entropic_bound.training import precision

    precision.native_bf16.cache_clear()
    monkeypatch.setattr(precision, "bf16_over_fp32", lambda: 80.0)  # the emulated path
    try:
        with caplog.at_level("INFO"):
            frame = _train(tiny_corpus, "emulated", precision="bf16")
        assert "no fast bfloat16 path: bf16 products run as float32 GEMMs" in caplog.text
        assert np.isfinite(frame["val_loss"].iloc[0])
        assert frame["val_loss"].iloc[0] < np.log(frame["vocab_size"].iloc[0])  # it learned
        assert precision.native_bf16("cuda")
    finally:
        precision.native_bf16.cache_clear()


def test_emulated_bf16_products_round_once_what_native_bf16_computes():
    """A product of two bf16 numbers is exact in float32, so the emulated GEMM is the exact
    product of the bf16-rounded operands rounded to bf16, up to the order of float32 sums: within
    one bf16 ulp of the float64 reference everywhere, equal to it almost everywhere. A GEMM
    that skipped the operands' rounding (plain fp32 then rounded) misses that."""
    import torch

    from entropic_bound.training.precision import Bf16ThroughFp32

    gen = torch.Generator().manual_seed(0)
    x, w = torch.randn(64, 96, generator=gen), torch.randn(128, 96, generator=gen)
    bias = torch.randn(128, generator=gen)
    reference = (x.bfloat16().double() @ w.bfloat16().double().T
                 + bias.bfloat16().double()).to(torch.bfloat16)
    with Bf16ThroughFp32(), torch.autocast("cpu", dtype=torch.bfloat16):
        out = torch.nn.functional.linear(x.requires_grad_(), w.requires_grad_(), bias)
        scores = out @ out.T
    assert out.dtype == torch.bfloat16 and scores.dtype == torch.bfloat16
    ulp = torch.finfo(torch.bfloat16).eps * reference.double().abs()
    assert bool(((out.double() - reference.double()).abs() <= ulp).all())
    assert (out == reference).double().mean() > 0.999
    unrounded = (x.double() @ w.double().T + bias.double()).to(torch.bfloat16)
    assert (unrounded == reference).double().mean() < 0.9  # the operands' rounding matters
    scores.float().sum().backward()  # gradients reach the float32 leaves, in their dtype
    assert x.grad.dtype == torch.float32 and torch.isfinite(w.grad).all()
    expected_w = (2 * out.detach().double().sum(0, keepdim=True).T
                  .expand(-1, 64) @ x.detach().bfloat16().double())  # d sum(o o^T) / dw
    assert torch.allclose(w.grad.double(), expected_w, rtol=0.03, atol=0.5)


def test_the_bf16_probe_reads_a_ratio_of_real_products():
    from entropic_bound.training.precision import bf16_over_fp32

    ratio = bf16_over_fp32(n=64, rounds=1)
    assert 0.01 < ratio < 1000  # what it is depends on the CPU; the refusal test fixes both


def test_a_layers_whole_kernel_is_the_sum_of_its_heads_kernels(tmp_path):
    """W_Q = I and W_K = diag(1, 1, 0, 0) (all heads together): the whole kernel W_Q W_K^T has
    singular values (1, 1, 0, 0), entropy rank 2; per head (two heads of width 2) the first
    head holds both directions, the second none."""
    from entropic_bound.measures.lm import layer_kernel_reff
    from entropic_bound.plumbing.atomic import write_npz

    q, k, v = np.eye(4), np.diag([1.0, 1.0, 0.0, 0.0]), np.ones((4, 4))
    write_npz(tmp_path / "w.npz", **{"blocks.0.qkv.weight": np.vstack([q, k, v]),
                                     "blocks.1.qkv.weight": np.vstack([q, np.eye(4), v])})
    found = layer_kernel_reff(str(tmp_path / "w.npz"))
    assert found[0] == pytest.approx(2.0) and found[1] == pytest.approx(4.0)


def test_assembling_an_e6_cells_table_imports_no_torch():
    """measure-lm reads the head measures training wrote: importing torch cost each of the 90
    jobs a second. The columns it keeps are the trajectory's after its keys."""
    import subprocess
    import sys

    from entropic_bound.measures.heads import MEASURES
    from entropic_bound.measures.lm import KEYS

    code = ("import sys, entropic_bound.commands.measure_lm, entropic_bound.measures.lm;"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
    assert not set(KEYS) & {"ffn_stable_rank", *MEASURES}
