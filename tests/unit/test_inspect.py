"""``entropic-bound inspect``: the E6 measures of a user's model on the user's text.

Tiny GPT-2 and LLaMA-style models are built from configs with random weights and saved to a
temporary folder; one head's query/key maps are planted so that its kernel W_Q W_K^T has rank
3 with known singular values. An E6 cell inspected on its own held-out windows gives the
workflow's measures.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import torch

from entropic_bound.measures import spectra
from entropic_bound.measures.inspection import BadInspection, inspect_model

transformers = pytest.importorskip("transformers")

SIGMAS = np.array([4.0, 2.0, 1.0])  # the planted head's kernel singular values
TEXT = ("It is a truth universally acknowledged, that a single man in possession of a good "
        "fortune, must be in want of a wife. ") * 40


def planted_factors(d: int, dh: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """W_Q, W_K (d x dh) with W_Q W_K^T = U diag(4, 2, 1) V^T: rank 3 of d_head dh."""
    rng = np.random.default_rng(seed)
    u = np.linalg.qr(rng.normal(size=(d, dh)))[0]
    v = np.linalg.qr(rng.normal(size=(d, dh)))[0]
    s = np.zeros(dh)
    s[:3] = SIGMAS
    return u * np.sqrt(s), v * np.sqrt(s)


def closed_form_reff() -> float:
    p = SIGMAS / SIGMAS.sum()
    return math.exp(-(p * np.log(p)).sum())


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory):
    cfg = transformers.GPT2Config(vocab_size=300, n_positions=64, n_embd=32, n_layer=2,
                                  n_head=4)
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(cfg)
    wq, wk = planted_factors(32, 8)
    with torch.no_grad():  # layer 1, head 2: c_attn is x W (d x 3d), Q then K then V
        w = model.transformer.h[1].attn.c_attn.weight
        w[:, 2 * 8:3 * 8] = torch.from_numpy(wq).float()
        w[:, 32 + 2 * 8:32 + 3 * 8] = torch.from_numpy(wk).float()
    path = tmp_path_factory.mktemp("gpt2")
    model.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def llama_dir(tmp_path_factory):
    cfg = transformers.LlamaConfig(vocab_size=300, hidden_size=32, intermediate_size=64,
                                   num_hidden_layers=2, num_attention_heads=4,
                                   num_key_value_heads=2, max_position_embeddings=64)
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg)
    wq, wk = planted_factors(32, 8, seed=1)
    with torch.no_grad():  # layer 0, query head 3 reads key head 3 // 2 = 1
        model.model.layers[0].self_attn.q_proj.weight[3 * 8:4 * 8] = torch.from_numpy(wq.T)
        model.model.layers[0].self_attn.k_proj.weight[8:16] = torch.from_numpy(wk.T)
    path = tmp_path_factory.mktemp("llama")
    model.save_pretrained(path)
    return path


@pytest.fixture()
def text(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text(TEXT)
    return path


@pytest.mark.parametrize("which, layer, head", [("gpt2", 1, 2), ("llama", 0, 3)])
def test_a_planted_rank_3_head_has_rank_3_and_the_closed_form_reff(which, layer, head, text,
                                                                   gpt2_dir, llama_dir):
    path = gpt2_dir if which == "gpt2" else llama_dir
    frame = inspect_model(path, text, count=4, context=32, byte_tokens=True)
    assert len(frame) == 2 * 4 and frame["loss"].iloc[0] > 0
    row = frame[(frame["layer"] == layer) & (frame["head"] == head)].iloc[0]
    assert row["static_reff"] == pytest.approx(closed_form_reff(), rel=1e-6)
    # grouped-query attention: query head 2 reads the same planted key head, so its kernel has
    # rank 3 as well; every other head is a random rank-8 kernel
    shared = [(layer, head)] + ([(0, 2)] if which == "llama" else [])
    is_planted = [(lay, h) in shared for lay, h in zip(frame["layer"], frame["head"])]
    assert (frame.loc[is_planted, "static_reff"] < 3 + 1e-9).all()
    assert (frame.loc[~np.array(is_planted), "static_reff"] > 4).all()
    assert ((frame["participation"] >= 1) & (frame["participation"] <= 32)).all()


def test_the_planted_kernel_has_numerical_rank_3(gpt2_dir):
    from entropic_bound.models import hf

    model = hf.load(gpt2_dir)
    factors, ffn_in = hf.layer_parts(model, hf.blocks(model)[1])
    s = spectra.product_singular_values(*factors[2])
    assert spectra.numerical_rank(np.diag(s), 1e-6) == 3
    assert s[:3] == pytest.approx(SIGMAS, rel=1e-6)
    assert ffn_in.shape == (4 * 32, 32)


def test_an_e6_cell_inspected_on_its_held_out_windows_gives_the_workflows_measures(tmp_path):
    import hashlib
    import json

    from entropic_bound.data.tokens import decode, load_tokens, tokenize_corpus
    from entropic_bound.data.windows import split_validation
    from entropic_bound.measures.lm import measure_lm
    from entropic_bound.models.lm import LMShape
    from entropic_bound.plumbing.settings import schema_defaults
    from entropic_bound.training.lm import TrainConfig, train_lm

    body = TEXT * 3
    (tmp_path / "t.txt").write_text(body)
    (tmp_path / "prov.json").write_text(json.dumps(
        {"text_sha256": hashlib.sha256(body.encode()).hexdigest()}))
    tok, meta = str(tmp_path / "tok.npz"), str(tmp_path / "meta.json")
    tokenize_corpus(str(tmp_path / "t.txt"), str(tmp_path / "prov.json"), tok, meta,
                    max_chars=20_000, val_fraction=0.2)
    shape = LMShape(**{**schema_defaults("e6", "model"), "context": 16})
    cfg = TrainConfig(**{**schema_defaults("e6", "train"), "max_steps": 20, "batch": 4,
                         "eval_every": 10, "select_windows": 4, "eval_windows": 6,
                         "precision": "fp32"})
    cell = tmp_path / "cell"
    kw = {"corpus": "tiny", "d_model": 16, "seed": 0, "shape": shape, "cfg": cfg}
    train_lm(tok, meta, f"{cell}.npz", f"{cell}.metrics.parquet", str(tmp_path / "traj.parquet"),
             checkpoints_out=f"{cell}.checkpoints.npz", **kw)
    measured = measure_lm(f"{cell}.metrics.parquet", str(tmp_path / "traj.parquet"),
                          f"{cell}.npz", str(tmp_path / "m.parquet"), corpus="tiny",
                          d_model=16, seed=0)
    arrays, info = load_tokens(tok, meta)
    held = tmp_path / "held_out.txt"
    held.write_text(decode(split_validation(arrays["val"])[1], info["vocab"]))
    frame = inspect_model(f"{cell}.npz", held, count=6, meta=meta)
    for column in ("static_reff", "mean_attn_reff", "per_input_reff", "participation",
                   "whitened_reff", "ffn_stable_rank"):
        assert np.allclose(frame[column], measured[column], rtol=1e-12, atol=0), column
    assert frame["loss"].iloc[0] == pytest.approx(measured["val_loss"].iloc[0], abs=1e-6)
    # one checkpoint along training: the trajectory's row of that step
    traj = pd.read_parquet(tmp_path / "traj.parquet")
    at10 = traj[(traj["step"] == 10) & ~traj["final"]].reset_index(drop=True)
    early = inspect_model(f"{cell}.checkpoints.npz", held, count=6, meta=meta, step=10)
    assert np.allclose(early["static_reff"], at10["static_reff"], rtol=1e-12, atol=0)
    with pytest.raises(BadInspection, match="give --step, one of the checkpoints 0, 10"):
        inspect_model(f"{cell}.checkpoints.npz", held, count=6, meta=meta)


@pytest.mark.parametrize("setup, message", [
    (lambda p: p / "missing", "no such E6 weights file"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "no config.json"),
])
def test_bad_models_get_one_line(tmp_path, text, setup, message):
    with pytest.raises(BadInspection, match=message):
        inspect_model(setup(tmp_path), text)


def test_an_unsupported_architecture_names_the_supported_ones(tmp_path, text):
    transformers.DistilBertConfig(vocab_size=300, dim=32, n_layers=1, n_heads=4,
                                  hidden_dim=64).save_pretrained(tmp_path)
    with pytest.raises(BadInspection, match="unsupported architecture 'distilbert'.*gpt2, "
                                            "llama.*bert, roberta"):
        inspect_model(tmp_path, text)


def test_short_text_and_missing_tokenizer(tmp_path, gpt2_dir):
    short = tmp_path / "short.txt"
    short.write_text("too short")
    with pytest.raises(BadInspection, match="9 tokens, fewer than one window of context"):
        inspect_model(gpt2_dir, short, context=32, byte_tokens=True)
    with pytest.raises(BadInspection, match="no tokenizer.*--byte-tokens"):
        inspect_model(gpt2_dir, short)


def test_the_command_prints_the_table_writes_parquet_and_figure(tmp_path, text, gpt2_dir):
    out, fig = tmp_path / "heads.parquet", tmp_path / "heads.png"
    run = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "inspect", str(gpt2_dir),
                          "--text", str(text), "--windows", "4", "--context", "32",
                          "--byte-tokens", "--out", str(out), "--figure", str(fig)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "static_reff" in run.stdout.splitlines()[0]
    assert len(pd.read_parquet(out)) == 8 and fig.read_bytes()[:4] == b"\x89PNG"
    bad = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "inspect",
                          str(tmp_path / "nope"), "--text", str(text)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("model_type", ["gpt2", "my_own_arch"])
def test_a_model_that_needs_its_own_code_is_refused_and_none_of_it_runs(tmp_path, model_type):
    """trust_remote_code is off: a directory whose config names custom code (auto_map) is
    refused in one line, and its module is never imported."""
    pytest.importorskip("transformers")
    from entropic_bound.models.hf import UnsupportedModel, load

    marker = tmp_path / "RAN"
    (tmp_path / "config.json").write_text(json.dumps({
        "model_type": model_type, "auto_map": {"AutoConfig": "evil.EvilConfig",
                                               "AutoModelForCausalLM": "evil.EvilModel"}}))
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    with pytest.raises(UnsupportedModel, match="custom code"):
        load(tmp_path)
    assert not marker.exists()
