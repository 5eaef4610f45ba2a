"""The stopping rule of E6's training (protocol §E6) and the names of the two ways a cell
stops; no torch, so that the claims that read a cell's stop reason do not load it."""

from __future__ import annotations

import math

STOPPED_BY_PATIENCE, STOPPED_AT_MAX = "patience", "max_steps"


class EarlyStopping:
    """The stopping rule: ``update(step, loss)`` after each validation; ``stop`` once
    ``patience`` validations in a row did not go below reference - min_delta. ``best_step``
    and ``best_loss`` track the plain minimum (the weights kept)."""

    def __init__(self, patience: int, min_delta: float):
        self.patience, self.min_delta = patience, min_delta
        self.reference = self.best_loss = math.inf
        self.best_step, self.waited = -1, 0

    def update(self, step: int, loss: float) -> bool:
        """Record one validation; True when it is the lowest so far."""
        if loss < self.reference - self.min_delta:
            self.reference, self.waited = loss, 0
        else:
            self.waited += 1
        if loss < self.best_loss:
            self.best_loss, self.best_step = loss, step
            return True
        return False

    @property
    def stop(self) -> bool:
        return self.waited >= self.patience
