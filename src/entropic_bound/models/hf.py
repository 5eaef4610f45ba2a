"""Local Hugging Face models read for the App. B measures (optional extra ``hf``:
``transformers``, ``safetensors``). Nothing is fetched from a hub: a directory must hold the
model's ``config.json`` and weights. Nothing in it is run: ``trust_remote_code`` is off (a model
that needs its own code is refused in one line) and safetensors are read where present.

Decoders: GPT-2 (``model_type`` gpt2: fused ``c_attn``, a Conv1D computing h W + b, so head
h's query map is the columns h*d_head .. of the first third and its key map those of the
second) and LLaMA-style decoders (llama, mistral, qwen2: ``q_proj``/``k_proj`` with grouped-query
heads, query head h reading key head h // (heads / kv_heads)).

Encoders (:data:`ENCODER_TYPES`): BERT and RoBERTa, which share BERT's module layout, come
with their weights only (``BertModel``; a masked-LM head is not read). Their attention is
bidirectional (no causal mask) and their blocks are post-LN, x <- LN(x + Attn(x)),
x <- LN(x + FFN(x)), so the *attention input* of layer l is the layer's own input: the
embeddings' LayerNorm output for layer 0 (word + position + token-type embeddings), the
previous layer's output after its second LayerNorm after that; the whitened kernel uses that
input's covariance. A window is the tokenizer's [CLS], ``context - 2`` text tokens and [SEP],
token type 0 and no padding (every window is full), so the special tokens take part in the
attention maps as they do in the model's own use. An encoder has no next-token loss: the
``loss`` column is empty (NaN) for it. DistilBERT (other module names) is not read.

For each layer :func:`layer_parts` gives every query head's factors (W_Q, W_K), d_model x
d_head, with scores h W_Q (h' W_K)^T up to the 1/sqrt(d_head) scale, and the FFN's
up-projection (GPT-2 ``c_fc``; LLaMA ``up_proj``, the gate's partner in SwiGLU; BERT
``intermediate.dense``). The static kernel W_Q W_K^T leaves out what is not bilinear in the
attention input: the query and key biases of GPT-2 and BERT, and the rotary positions of
LLaMA. With rotary embeddings a score is q_i^T R_(j-i) k_j, R_delta the rotation by the offset
j - i, so the bilinear form at offset delta is W_Q R_delta W_K^T; the static kernel is the one
at offset 0 (a token attending to itself). The rotations are orthogonal, so every offset's
kernel has the same rank bound d_head, but not the same spectrum. :func:`probe` records each
layer's attention maps (eager attention, post-softmax, positions included) and attention input.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

GPT2_TYPES = ("gpt2",)
LLAMA_TYPES = ("llama", "mistral", "qwen2")
ENCODER_TYPES = ("bert", "roberta")
SUPPORTED = GPT2_TYPES + LLAMA_TYPES + ENCODER_TYPES


class UnsupportedModel(ValueError):
    """A model directory this module cannot read: the message says what is supported."""


def load(path: str | Path) -> torch.nn.Module:
    """The model in the local directory ``path``: a causal LM, or an encoder's base model
    (float32, eager attention, eval mode)."""
    path = Path(path)
    if not (path / "config.json").is_file():
        raise UnsupportedModel(f"{path}: no config.json; inspect reads a local Hugging Face "
                               "model directory and fetches nothing from a hub")
    try:
        import transformers
    except ImportError as err:
        raise UnsupportedModel("reading Hugging Face models needs the hf extra: "
                               "pip install -e '.[hf]'") from err
    try:
        config = transformers.AutoConfig.from_pretrained(path, local_files_only=True,
                                                         trust_remote_code=False)
    except ValueError as err:  # a model_type only its own code defines
        if "trust_remote_code" not in str(err):
            raise
        config = None
    if config is None or getattr(config, "auto_map", None):
        raise UnsupportedModel(f"{path}: config.json names custom code (auto_map); inspect "
                               "runs no code from a model directory")
    if config.model_type not in SUPPORTED:
        raise UnsupportedModel(f"{path}: unsupported architecture {config.model_type!r}; "
                               f"inspect supports {', '.join(SUPPORTED)}")
    auto = (transformers.AutoModel if is_encoder(config)
            else transformers.AutoModelForCausalLM)
    # safetensors where the directory has them (no pickle is read); a .bin checkpoint is read
    # by torch's weights-only loader (torch >= 2.6: CVE-2025-32434 closed), never as a pickle
    model = auto.from_pretrained(path, local_files_only=True, attn_implementation="eager",
                                 dtype=torch.float32, trust_remote_code=False,
                                 use_safetensors=any(path.glob("*.safetensors")) or None)
    return model.eval()


def is_encoder(config) -> bool:
    """Whether a model (by its config) is a bidirectional encoder: no next-token loss."""
    return config.model_type in ENCODER_TYPES


def blocks(model: torch.nn.Module) -> list[torch.nn.Module]:
    """The decoder or encoder layers, in order."""
    if model.config.model_type in GPT2_TYPES:
        return list(model.transformer.h)
    if is_encoder(model.config):
        return list(model.encoder.layer)
    return list(model.model.layers)


def _first_norm(block: torch.nn.Module, model_type: str) -> torch.nn.Module:
    return block.ln_1 if model_type in GPT2_TYPES else block.input_layernorm


def layer_parts(model: torch.nn.Module, block: torch.nn.Module
                ) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Per query head (W_Q, W_K), d_model x d_head float64, and the FFN up-projection."""
    cfg = model.config
    heads = cfg.num_attention_heads
    if cfg.model_type in GPT2_TYPES:
        w = block.attn.c_attn.weight.detach().double().numpy()  # (d, 3d): x W
        d = w.shape[0]
        dh = d // heads
        factors = [(w[:, h * dh:(h + 1) * dh], w[:, d + h * dh:d + (h + 1) * dh])
                   for h in range(heads)]
        return factors, block.mlp.c_fc.weight.detach().double().numpy().T
    if is_encoder(cfg):  # nn.Linear: W x + b, W (out, in)
        wq = block.attention.self.query.weight.detach().double().numpy()
        wk = block.attention.self.key.weight.detach().double().numpy()
        dh = wq.shape[0] // heads
        factors = [(wq[h * dh:(h + 1) * dh].T, wk[h * dh:(h + 1) * dh].T) for h in range(heads)]
        return factors, block.intermediate.dense.weight.detach().double().numpy()
    attn = block.self_attn
    wq = attn.q_proj.weight.detach().double().numpy()  # (heads * dh, d): W x
    wk = attn.k_proj.weight.detach().double().numpy()  # (kv_heads * dh, d)
    dh = wq.shape[0] // heads
    group = heads // (wk.shape[0] // dh)
    factors = [(wq[h * dh:(h + 1) * dh].T, wk[(h // group) * dh:(h // group + 1) * dh].T)
               for h in range(heads)]
    return factors, block.mlp.up_proj.weight.detach().double().numpy()


def probe(model: torch.nn.Module, ids: torch.Tensor
          ) -> tuple[torch.Tensor, list[dict[str, np.ndarray]]]:
    """The logits on ``ids`` (N, T) (an encoder's last hidden states, which have no loss) and
    per layer ``attn`` (N, heads, T, T) and ``input`` (N, T, d), the attention input."""
    if is_encoder(model.config):
        with torch.no_grad():
            out = model(ids, attention_mask=torch.ones_like(ids),
                        token_type_ids=torch.zeros_like(ids), output_attentions=True,
                        output_hidden_states=True)
        # post-LN: layer l attends over its own input, hidden_states[l]
        return out.last_hidden_state, [{"attn": a.numpy(), "input": h.numpy()}
                                       for a, h in zip(out.attentions, out.hidden_states)]
    seen: list[np.ndarray] = []
    hooks = [_first_norm(b, model.config.model_type).register_forward_hook(
        lambda _m, _i, out: seen.append(out.detach().numpy())) for b in blocks(model)]
    try:
        with torch.no_grad():
            out = model(ids, output_attentions=True)
    finally:
        for hook in hooks:
            hook.remove()
    return out.logits, [{"attn": a.detach().numpy(), "input": h}
                        for a, h in zip(out.attentions, seen)]
