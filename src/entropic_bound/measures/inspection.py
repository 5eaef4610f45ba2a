"""The App. B measures of a user's model on the user's text (``entropic-bound inspect``;
the paper's open problem (ii)).

MODEL is either an E6 cell of this workflow (its weights ``.npz``, or one step of its
``.checkpoints.npz``, read with the training settings of the ``.metrics.parquet`` beside it
and the corpus vocabulary of its ``meta.json``) or a local Hugging Face decoder directory
(:mod:`entropic_bound.models.hf`).
Both go through :func:`entropic_bound.measures.heads.layer_rows`, the function the workflow's
measures use, so an E6 cell inspected on its own held-out windows gives the workflow's
numbers. The text is cut into ``windows`` evenly spaced windows of ``context`` tokens
(:func:`entropic_bound.data.windows.eval_starts`), as the workflow cuts its validation split.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from entropic_bound.data.windows import eval_starts, windows
from entropic_bound.measures.heads import MEASURES, layer_rows, model_measures
from entropic_bound.models.checkpoints import checkpoint_prefix, checkpoint_steps_in, load_model
from entropic_bound.models.evaluation import cross_entropy
from entropic_bound.models.lm import LMShape
from entropic_bound.plumbing.atomic import CorruptCacheError

COLUMNS = ["layer", "head", *MEASURES, "ffn_stable_rank"]
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.json", "vocab.txt",
                   "tokenizer.model")


log = logging.getLogger(__name__)


class BadInspection(ValueError):
    """A model, text or setting inspect cannot use: the message names it and what is expected."""


def read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise BadInspection(f"{path}: no such text file") from err
    except IsADirectoryError as err:
        raise BadInspection(f"{path}: a directory; --text names one UTF-8 text file") from err
    except UnicodeDecodeError as err:
        raise BadInspection(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from err


def text_windows(ids: np.ndarray, context: int, count: int,
                 source: str) -> tuple[torch.Tensor, ...]:
    """``count`` evenly spaced windows of ``context`` tokens and their next tokens."""
    if len(ids) <= context + 1:
        raise BadInspection(f"{source}: {len(ids)} tokens, fewer than one window of "
                            f"context + 1 = {context + 1}; give a longer text or a smaller "
                            "--context")
    starts = eval_starts(len(ids), context, count)
    if len(starts) > 1 and int(np.diff(starts).min()) < context:
        log.warning("%s: %d windows of %d tokens overlap in its %d tokens (starts %d apart): "
                    "they share tokens; fewer --windows or a longer text reads each once",
                    source, count, context, len(ids), int(np.diff(starts).min()))
    return windows(ids, starts, context)


def _cell_config(weights: Path) -> tuple[dict, LMShape]:
    stem = weights.name.removesuffix(".npz").removesuffix(".checkpoints")
    metrics = weights.with_name(stem + ".metrics.parquet")
    if not metrics.is_file():
        raise BadInspection(f"{weights}: no {metrics.name} beside it; an E6 cell's weights "
                            "are read with the settings its training recorded")
    record = pd.read_parquet(metrics).iloc[0]
    return record.to_dict(), LMShape(**{f.name: int(record[f.name]) for f in fields(LMShape)})


def corpus_meta(weights: Path, corpus: str) -> Path:
    """The vocabulary of an E6 cell's corpus: ``corpora/<corpus>/meta.json`` in the
    ``results`` folder that holds the cell's weights (wherever inspect runs from), else
    ``results/corpora/<corpus>/meta.json`` of the working directory."""
    for folder in weights.resolve().parents:
        if folder.name == "results" and (folder / "corpora" / corpus / "meta.json").is_file():
            return folder / "corpora" / corpus / "meta.json"
    return Path("results/corpora") / corpus / "meta.json"


def inspect_cell(weights: Path, text: str, source: str, *, count: int,
                 context: int | None, meta: str | None, step: int | None = None,
                 progress: Callable[[str], None] = lambda step: None
                 ) -> tuple[float, list[dict]]:
    """(loss, rows) of an E6 cell: its kept weights, or with ``step`` the checkpoint of that
    step from its ``.checkpoints.npz`` (``train-lm --checkpoints`` writes one; the workflow
    keeps none); its vocabulary from ``meta`` (default: :func:`corpus_meta`)."""
    from entropic_bound.data.tokens import encode

    record, cfg = _cell_config(weights)
    if step is not None and not weights.name.endswith(".checkpoints.npz"):
        raise BadInspection(f"{weights}: --step reads a .checkpoints.npz (train-lm "
                            "--checkpoints writes one); this file holds the kept weights only")
    meta_path = Path(meta) if meta else corpus_meta(weights, str(record["corpus"]))
    if not meta_path.is_file():
        raise BadInspection(f"{meta_path}: no such vocabulary file; pass --meta, the corpus's "
                            "meta.json")
    vocab = json.loads(meta_path.read_text())["vocab"]
    unknown = sorted(set(text) - set(vocab))
    if unknown:
        raise BadInspection(f"{source}: {len(unknown)} character(s) outside the cell's "
                            f"vocabulary ({meta_path}), e.g. {unknown[0]!r}; an E6 cell reads "
                            "only the characters of its corpus")
    try:
        ids = encode(text, vocab)
    except ValueError as err:
        raise BadInspection(f"{source}: {err}") from err
    context = context or cfg.context
    if context > cfg.context:
        raise BadInspection(f"--context {context} is longer than the cell's {cfg.context}")
    prefix = ""
    if weights.name.endswith(".checkpoints.npz"):
        steps = checkpoint_steps_in(str(weights))
        if step not in steps:
            raise BadInspection(f"{weights}: give --step, one of the checkpoints "
                                f"{', '.join(map(str, steps))}")
        prefix = checkpoint_prefix(step)
    try:
        model = load_model(str(weights), len(vocab), int(record["d_model"]), cfg, prefix)
    except CorruptCacheError as err:
        raise BadInspection(f"{weights}: not a readable .npz file "
                            f"({err.__cause__ or 'damaged archive'})") from None
    except (RuntimeError, KeyError) as err:  # load_state_dict: missing or misshapen arrays
        first = str(err).strip().splitlines()[0]
        raise BadInspection(f"{weights}: its arrays are not those of an E6 cell of d_model "
                            f"{int(record['d_model'])} with the {len(vocab)}-character "
                            f"vocabulary of {meta_path} ({first})") from None
    bad = [name for name, p in model.named_parameters() if not torch.isfinite(p).all()]
    if bad:
        raise BadInspection(f"{weights}: NaN or infinite weights in {', '.join(bad[:3])}"
                            f"{' ...' if len(bad) > 3 else ''}")
    x, y = text_windows(ids, context, count, source)
    progress(f"{weights} read: measuring its {cfg.layers} layers on {len(x)} windows")
    return model_measures(model, x, y)


def inspect_hf(path: Path, text: str, source: str, *, count: int, context: int | None,
               byte_tokens: bool, progress: Callable[[str], None] = lambda step: None
               ) -> tuple[float, list[dict]]:
    """(loss, rows) of a local Hugging Face decoder or encoder (an encoder's loss is NaN: it
    has no next-token loss; its windows are [CLS] text [SEP], :mod:`entropic_bound.models.hf`).
    """
    from entropic_bound.models import hf

    try:
        model = hf.load(path)
    except hf.UnsupportedModel as err:
        raise BadInspection(str(err)) from err
    encoder = hf.is_encoder(model.config)
    if byte_tokens and encoder:
        raise BadInspection(f"{path}: --byte-tokens reads decoders only; an encoder reads its "
                            "own tokenizer's ids, with its [CLS] and [SEP]")
    if byte_tokens:
        ids = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
        if model.config.vocab_size < 256:
            raise BadInspection(f"{path}: --byte-tokens needs a vocabulary of >= 256, not "
                                f"{model.config.vocab_size}")
    else:
        import transformers

        if not any((path / name).is_file() for name in TOKENIZER_FILES):
            raise BadInspection(f"{path}: no tokenizer in the directory (none of "
                                f"{', '.join(TOKENIZER_FILES)})"
                                + ("" if encoder else "; pass --byte-tokens to read the "
                                   "text's UTF-8 bytes as token ids"))
        tok = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True,
                                                         trust_remote_code=False)
        ids = np.asarray(tok(text, add_special_tokens=not encoder, verbose=False)["input_ids"],
                         dtype=np.int64)
    limit = getattr(model.config, "n_positions", None) or model.config.max_position_embeddings
    context = context or min(128 if encoder else 256, limit)
    if context > limit:
        raise BadInspection(f"--context {context} is longer than the model's {limit} positions")
    if encoder:
        if context < 3:
            raise BadInspection(f"--context {context}: an encoder's window holds [CLS], at "
                                "least one text token and [SEP]")
        x, _ = text_windows(ids, context - 2, count, source)
        x = torch.cat([torch.full((len(x), 1), tok.cls_token_id), x,
                       torch.full((len(x), 1), tok.sep_token_id)], dim=1)
    else:
        x, y = text_windows(ids, context, count, source)
    progress(f"{path} read: a forward pass over {len(x)} windows of {context} tokens")
    logits, seen = hf.probe(model, x)
    rows = []
    blocks = hf.blocks(model)
    for layer, (block, probe) in enumerate(zip(blocks, seen)):
        factors, ffn_in = hf.layer_parts(model, block)
        rows += [{"layer": layer, **row}
                 for row in layer_rows(factors, probe["attn"], probe["input"], ffn_in)]
        progress(f"layer {layer + 1} of {len(blocks)} measured")
    return (float("nan") if encoder else cross_entropy(logits, y)), rows


def inspect_model(model: str | Path, text_path: str | Path, *, count: int = 32,
                  context: int | None = None, meta: str | None = None,
                  byte_tokens: bool = False, step: int | None = None,
                  progress: Callable[[str], None] = lambda step: None) -> pd.DataFrame:
    """One row per (layer, head): every E6 measure of MODEL on ``count`` windows of the text,
    with the text's mean next-token cross-entropy (``loss``, nats/token) and the windows.
    ``step`` picks one checkpoint of an E6 cell's ``.checkpoints.npz``; ``progress`` hears
    each step."""
    model = Path(model)
    if count < 1:
        raise BadInspection(f"--windows {count}: give at least 1 window")
    if context is not None and context < 1:
        raise BadInspection(f"--context {context}: give at least 1 token per window (or leave it "
                            "out for the model's own)")
    text = read_text(text_path)
    if model.is_file() and model.suffix == ".npz":
        loss, rows = inspect_cell(model, text, str(text_path), count=count, context=context,
                                  meta=meta, step=step, progress=progress)
    elif model.is_dir():
        if step is not None:
            raise BadInspection(f"{model}: --step reads an E6 cell's .checkpoints.npz, not a "
                                "model folder")
        loss, rows = inspect_hf(model, text, str(text_path), count=count, context=context,
                                byte_tokens=byte_tokens, progress=progress)
    else:
        raise BadInspection(f"{model}: no such E6 weights file (.npz) or model directory "
                            "(inspect reads local files only and fetches nothing from a hub)")
    frame = pd.DataFrame(rows)[COLUMNS]
    return frame.assign(loss=loss, windows=count, model=str(model))
