"""Held-out hygiene of a corpus split (protocol §E6, "Held-out hygiene").

A char LM's held-out loss measures prediction only where the held-out text is not already in
its training split. With the project's split (the first ``max_chars`` characters; train the
first ``1 - val_fraction``; the held-out half of the rest, :func:`split_validation`), two
numbers say how far a corpus falls short:

* **overlap**: of :data:`WINDOWS` evenly spaced held-out windows of ``context + 1`` characters
  (the windows the reported loss is computed on, :func:`eval_starts`), the share that occur
  verbatim in the training split;
* **repeated lines**: the share of the text's non-blank lines that repeat an earlier line.

The tokenizer's command stops a corpus whose overlap exceeds ``e6.max_heldout_overlap`` in one
line (corpus, overlap, threshold), before any cell trains on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropic_bound.data.windows import eval_starts, split_validation

WINDOWS = 64


@dataclass(frozen=True)
class Hygiene:
    windows: int
    window_chars: int
    in_train: int
    repeated_lines: float

    @property
    def overlap(self) -> float:
        return self.in_train / self.windows


def heldout_hygiene(text: str, *, max_chars: int, val_fraction: float,
                    context: int) -> Hygiene:
    """Verbatim overlap of the held-out windows with the training split, and repeated lines,
    of the split :func:`entropic_bound.data.tokens.tokenize_corpus` makes of ``text``."""
    text = text[:max_chars]
    cut = int(round(len(text) * (1.0 - val_fraction)))
    train = text[:cut]
    _, held = split_validation(np.arange(cut, len(text)))
    held_text = text[int(held[0]):] if len(held) else ""
    starts = eval_starts(len(held_text), context, WINDOWS)
    in_train = sum(held_text[s:s + context + 1] in train for s in starts.tolist())
    lines = [line for line in text.splitlines() if line.strip()]
    repeated = 1.0 - len(set(lines)) / len(lines) if lines else 0.0
    return Hygiene(WINDOWS, context + 1, in_train, repeated)


def check_heldout(name: str, hygiene: Hygiene, threshold: float) -> None:
    """Stop, in one line, a corpus whose held-out windows its training split holds beyond
    ``threshold``."""
    if hygiene.overlap > threshold:
        raise ValueError(
            f"corpus {name!r}: {hygiene.in_train} of {hygiene.windows} held-out windows of "
            f"{hygiene.window_chars} characters occur verbatim in its training split (overlap "
            f"{hygiene.overlap:.2f} > e6.max_heldout_overlap = {threshold:g}): its held-out "
            f"loss would measure recall; de-duplicate the text or choose another source "
            f"(docs/protocol.md, 'Held-out hygiene')")
