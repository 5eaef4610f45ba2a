"""The interpolation ladder (Section 5; protocol §E2) and the linear surrogate (Section 4; E1):
student classes for the fixed-operator task Y = A* X V* + E, one forward per class.

  B0   Y_hat = A X V,  A = P Q^T,  P, Q in R^{T x r}                       (linear surrogate)
  B1   Y_hat = (X W_Q)(X W_K)^T X V / sqrt(d),  W_Q, W_K in R^{d x r}       (QK, no softmax)
  B1c  Y_hat = X K X^T X V / sqrt(d),  K in R^{d x d} unconstrained           (full-rank control)
  B2   Y_hat = softmax_row((X W_Q)(X W_K)^T / sqrt(d)) X V
  B3   pre-LN block: H = X + softmax_row(Z W_Q W_K^T Z^T / sqrt(d)) Z V, Z = LN_1(X);
       Y_hat = H + FFN(LN_2(H)), FFN(U) = GELU(U W_1 + b_1) W_2 + b_2, hidden width 4d
  B3 sensitivity variants (Table 2's block is not specified further in the paper):
  B3_postln         post-LN: H = LN_1(X + M(X) X V), Y_hat = LN_2(H + FFN(H))
  B3_rscale         pre-LN with learnable residual scales s_1, s_2 (init 1) on the skip paths:
                    H = s_1 X + M(Z) Z V, Y_hat = s_2 H + FFN(LN_2(H)); s = 0 removes the skip
  B3_postln_rscale  post-LN with the same scales: H = LN_1(s_1 X + M(X) X V),
                    Y_hat = LN_2(s_2 H + FFN(H))
  Position-aware variants (protocol §E2): X has i.i.d. rows, so every class above but B0 is
  permutation-equivariant and bounded below by the equivariance floor; these carry the position
  information a full Transformer stack has:
  B3_pos            learned absolute positional embeddings E in R^{T x d} added to the input:
                    the pre-LN block applied to X + E (E drawn N(0, pos_init_scale^2))
  B3_causal         the pre-LN block with a causal attention mask (token t attends to s <= t)
  B3_pos_readout, B3_causal_readout   the same with a final per-token linear readout:
                    Y_hat = block(X) W_out, W_out in R^{d x d}

Every class exposes its token mixer M(X) (T x T per input) and its static operator (A for B0,
the kernel W_Q W_K^T or K otherwise), which the realized-operator measures of Table 2 use.
Initialisation follows protocol §1: a factor in R^{a x b} is N(0, 1/a); LayerNorm gains 1,
biases 0; the rank factors (P, Q, W_Q, W_K, K) are multiplied by ``init_scale``.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from entropic_bound.models.students import init_factor, qk_forward

# Appended only: a class's position keys its initialisation stream.
CLASSES = ("B0", "B1", "B1c", "B2", "B3", "B3_postln", "B3_rscale", "B3_postln_rscale",
           "B3_pos", "B3_causal", "B3_pos_readout", "B3_causal_readout")
BLOCKS = tuple(c for c in CLASSES if c.startswith("B3"))  # full Transformer blocks


def _post_ln(cls: str) -> bool:
    return "postln" in cls


def _residual_scaled(cls: str) -> bool:
    return "rscale" in cls


def _embedded(cls: str) -> bool:
    return cls in ("B3_pos", "B3_pos_readout")  # not B3_postln


def _causal(cls: str) -> bool:
    return cls in ("B3_causal", "B3_causal_readout")


def _readout(cls: str) -> bool:
    return cls.endswith("_readout")


def init_params(cls: str, T: int, d: int, r: int, seed: int, role: int,
                init_scale: float = 1.0, pos_init_scale: float = 0.0) -> dict[str, np.ndarray]:
    """Initial parameters (float64) of one student, from a stream keyed by (seed, class, r,
    role); ``pos_init_scale``: the std of the positional embeddings of the B3_pos classes."""
    if cls not in CLASSES:
        raise ValueError(f"unknown ladder class {cls!r}; expected one of {CLASSES}")
    rng = np.random.default_rng(np.random.SeedSequence([seed, CLASSES.index(cls), r, role, 104729]))
    if cls == "B0":
        return {"P": init_factor(rng, T, r, init_scale), "Q": init_factor(rng, T, r, init_scale),
                "V": init_factor(rng, d, d)}
    if cls == "B1c":
        return {"K": init_factor(rng, d, d, init_scale), "V": init_factor(rng, d, d)}
    p = {"WQ": init_factor(rng, d, r, init_scale), "WK": init_factor(rng, d, r, init_scale),
         "V": init_factor(rng, d, d)}
    if cls in BLOCKS:
        p.update({"ln1_g": np.ones(d), "ln1_b": np.zeros(d), "ln2_g": np.ones(d),
                  "ln2_b": np.zeros(d), "W1": init_factor(rng, d, 4 * d), "b1": np.zeros(4 * d),
                  "W2": init_factor(rng, 4 * d, d), "b2": np.zeros(d)})
        if _residual_scaled(cls):
            p.update({"s1": np.ones(1), "s2": np.ones(1)})
        if _embedded(cls):
            p["E"] = pos_init_scale * rng.standard_normal((T, d))
        if _readout(cls):
            p["W_out"] = init_factor(rng, d, d)
    return p


def _layer_norm(x: torch.Tensor, g: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5)


def mixer(cls: str, x: torch.Tensor, p: dict[str, torch.Tensor]) -> torch.Tensor:
    """Token mixer M(X) of each input, shape (n, T, T) (B0: A broadcast over inputs)."""
    if cls == "B0":
        n, T, _ = x.shape
        return (p["P"] @ p["Q"].T).expand(n, T, T)
    return _attention(cls, x + p["E"] if _embedded(cls) else x, p)


def _attention(cls: str, x: torch.Tensor, p: dict[str, torch.Tensor]) -> torch.Tensor:
    """M of the QK classes on the block's input x (positional embeddings already added)."""
    n, T, d = x.shape
    if cls in BLOCKS and not _post_ln(cls):
        x = _layer_norm(x, p["ln1_g"], p["ln1_b"])
    k = p["K"] if cls == "B1c" else p["WQ"] @ p["WK"].T
    scores = x @ k @ x.transpose(-1, -2) / math.sqrt(d)
    if _causal(cls):  # token t attends to s <= t
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
    return scores if cls in ("B1", "B1c") else torch.softmax(scores, dim=-1)


def static_operator(cls: str, p: dict[str, np.ndarray]) -> np.ndarray:
    """A = P Q^T for B0; the query-key kernel (W_Q W_K^T, or K for B1c) otherwise."""
    if cls == "B0":
        return p["P"] @ p["Q"].T
    return p["K"] if cls == "B1c" else p["WQ"] @ p["WK"].T


def forward(cls: str, x: torch.Tensor, **p: torch.Tensor) -> torch.Tensor:
    """Y_hat of class ``cls`` for inputs x of shape (n, T, d)."""
    if cls in ("B1", "B2"):
        return qk_forward("linear_qk" if cls == "B1" else "softmax_qk", x, p["WQ"], p["WK"], p["V"])
    if cls in ("B0", "B1c"):
        return mixer(cls, x, p) @ x @ p["V"]
    return _block(cls, x, p)


def _block(cls: str, x: torch.Tensor, p: dict[str, torch.Tensor]) -> torch.Tensor:
    """The B3 family: attention and FFN sublayers with skip paths, pre- or post-LN; the
    positional input, the causal mask (in :func:`mixer`) and the readout of the variants."""
    out = _sublayers(cls, x + p["E"] if _embedded(cls) else x, p)
    return out @ p["W_out"] if _readout(cls) else out


def _sublayers(cls: str, x: torch.Tensor, p: dict[str, torch.Tensor]) -> torch.Tensor:
    s1, s2 = (p["s1"], p["s2"]) if _residual_scaled(cls) else (1.0, 1.0)

    def ffn(u: torch.Tensor) -> torch.Tensor:
        return F.gelu(u @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    if _post_ln(cls):
        h = _layer_norm(s1 * x + _attention(cls, x, p) @ x @ p["V"], p["ln1_g"], p["ln1_b"])
        return _layer_norm(s2 * h + ffn(h), p["ln2_g"], p["ln2_b"])
    z = _layer_norm(x, p["ln1_g"], p["ln1_b"])
    h = s1 * x + _attention(cls, x, p) @ z @ p["V"]
    return s2 * h + ffn(_layer_norm(h, p["ln2_g"], p["ln2_b"]))


def weight_key(cls: str, role: str, r: int) -> str:
    """Prefix of one student's arrays in a cell's weights file: ``<class>_<role>_r<r>``."""
    return f"{cls}_{role}_r{r}"


def student_params(weights: np.lib.npyio.NpzFile, cls: str, role: str, r: int) -> dict:
    """One student's parameters out of a cell's weights file (see :func:`weight_key`)."""
    prefix = weight_key(cls, role, r) + "_"
    return {k[len(prefix):]: weights[k] for k in weights.files if k.startswith(prefix)}
