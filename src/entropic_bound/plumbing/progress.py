"""Progress of a command that can take more than a few seconds (``estimate-rank``, ``inspect``,
``store rekeys``): one line per step, to stderr, with the seconds since it began; only where
stderr is a terminal (a log or a pipe gets none) and the user did not ask for quiet (``-q``)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``progress("step")`` prints ``<what>: step (N.N s)`` where it is on."""

    def __init__(self, what: str, quiet: bool = False, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.on = not quiet and self.stream.isatty()
        self.what, self.start = what, time.perf_counter()

    def __call__(self, step: str) -> None:
        if self.on:
            print(f"{self.what}: {step} ({time.perf_counter() - self.start:.1f} s)",
                  file=self.stream, flush=True)
