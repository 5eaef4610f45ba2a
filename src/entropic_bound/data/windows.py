"""Windows of a tokenized corpus for the char LMs of App. B (protocol §E6): random training
windows, fixed evaluation windows, and the two halves of the validation split.

The validation split is cut in two (:func:`split_validation`): fixed, evenly spaced windows of
its first half choose the stopping step of early stopping; those of its second half give the
reported validation loss and feed the measures, which so never see the text that chose the
weights.
"""

from __future__ import annotations

import numpy as np
import torch


def windows(ids: np.ndarray, starts: np.ndarray, context: int) -> tuple[torch.Tensor, ...]:
    """Inputs ids[s : s+context] and next-character targets for each start s."""
    idx = starts[:, None] + np.arange(context + 1)[None, :]
    chunk = torch.from_numpy(ids[idx].astype(np.int64))
    return chunk[:, :-1], chunk[:, 1:]


def eval_starts(n_tokens: int, context: int, count: int) -> np.ndarray:
    """Evenly spaced window starts over a split (fixed, so every cell sees the same text)."""
    if n_tokens <= context + 1:
        raise ValueError(f"validation split has {n_tokens} tokens, fewer than context+1="
                         f"{context + 1}; raise the corpus's max_chars or val_fraction")
    return np.linspace(0, n_tokens - context - 1, count).astype(np.int64)


def split_validation(val: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(selection, held_out): the first half of the validation split, which early stopping
    reads, and the second half, which the reported loss and the measures read."""
    half = len(val) // 2
    return val[:half], val[half:]


def fixed_windows(ids: np.ndarray, context: int, count: int) -> tuple[torch.Tensor, ...]:
    """``count`` evenly spaced windows of ``ids`` and their targets."""
    return windows(ids, eval_starts(len(ids), context, count), context)
