"""Character-level tokens of a fetched corpus (protocol §E6): the vocabulary is the text's
characters sorted by code point, token id = index; the first ``max_chars`` characters are split
into train (first 1 - val_fraction) and validation (the rest). The text is checked against the
sha256 its fetch recorded before it is tokenized.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from entropic_bound.plumbing.atomic import (
    open_npz,
    read_verified_text,
    sha256_bytes,
    write_json,
    write_npz,
)


def vocabulary(text: str) -> list[str]:
    """The corpus's characters, sorted by code point: token id = index."""
    return sorted(set(text))


MAX_VOCAB = 2**16  # token ids are uint16; E6's data side builds vocabulary x vocabulary operators


def encode(text: str, vocab: list[str]) -> np.ndarray:
    """Token ids (uint8 for vocabularies up to 256 characters, else uint16)."""
    if len(vocab) > MAX_VOCAB:
        raise ValueError(f"{len(vocab):,} distinct characters: a char-level vocabulary holds at "
                         f"most {MAX_VOCAB:,} (uint16 ids; the data side's operators are "
                         f"vocabulary x vocabulary). Is the corpus text in one alphabet?")
    dtype = np.uint8 if len(vocab) <= 256 else np.uint16
    lookup = {c: i for i, c in enumerate(vocab)}
    return np.fromiter((lookup[c] for c in text), dtype=dtype, count=len(text))


def decode(ids: np.ndarray, vocab: list[str]) -> str:
    return "".join(vocab[i] for i in ids.tolist())


def tokenize_corpus(text_path: str, provenance_path: str, tokens_out: str, meta_out: str, *,
                    max_chars: int, val_fraction: float) -> dict:
    """Character-level tokens of the first ``max_chars`` characters of the verified text, split
    into train (first 1 - val_fraction) and validation (the rest) so that the two never
    overlap."""
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must lie in (0, 1), got {val_fraction}")
    text = read_verified_text(text_path, provenance_path)[:max_chars]
    vocab = vocabulary(text)
    try:
        ids = encode(text, vocab)
    except ValueError as err:
        raise ValueError(f"{text_path}: {err}") from None
    cut = int(round(len(ids) * (1.0 - val_fraction)))
    write_npz(tokens_out, train=ids[:cut], val=ids[cut:])
    meta = {"vocab": vocab, "vocab_size": len(vocab), "dtype": str(ids.dtype),
            "chars": len(text), "train_tokens": cut, "val_tokens": len(ids) - cut,
            "max_chars": max_chars, "val_fraction": val_fraction,
            "text_sha256": sha256_bytes(text.encode("utf-8"))}
    write_json(meta_out, meta)
    return meta


def load_tokens(tokens_path: str, meta_path: str) -> tuple[dict[str, np.ndarray], dict]:
    with open_npz(tokens_path) as z:
        arrays = {k: z[k] for k in z.files}
    return arrays, json.loads(Path(meta_path).read_text())
