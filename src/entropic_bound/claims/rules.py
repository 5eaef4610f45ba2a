"""What a claim is and how it is judged (protocol §4): the verdicts, the :class:`Claim`
record (every published number, where it stands in the paper, the rule it is checked by and the
result column it is checked against) and the verdict helpers the rules of every experiment share.

Verdicts: reproduced, partly, not reproduced, not run, and "not comparable" where the run's
budget leaves the measured quantity too close to its initial value to say anything. Entries of
kind "check" are arithmetic consistency checks (noise floors, teacher energy ranks): they test
the pipeline's definitions, not the paper's experiments, and stay out of the tallies. Entries
of kind "extension" are this project's hypotheses on one of the paper's open problems (E7, open
problem (iv)), committed before their cells were computed: judged and firmed like a claim,
tallied apart from the paper's claims.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

REPRODUCED, PARTLY, NOT_REPRODUCED, NOT_RUN = "reproduced", "partly", "not reproduced", "not run"
NOT_COMPARABLE = "not comparable"
CLAIM, CHECK, EXTENSION = "claim", "check", "extension"

Tables = Mapping[str, pd.DataFrame]
Outcome = tuple[str, str]  # (reproduced value as text, verdict)
Readings = Callable[[pd.DataFrame], dict[str, str]]  # other reading's name -> its verdict


@dataclass(frozen=True)
class Claim:
    id: str
    experiment: str
    location: str
    statement: str
    published: str
    rule: str
    column: str  # "<table>.<column>" the claim is checked against
    evaluate: Callable[[pd.DataFrame], Outcome]
    # CHECK: an arithmetic consistency check, outside the tallies; EXTENSION: beyond the paper
    kind: str = CLAIM
    # the other readings the protocol names (another tolerance, estimator, block or operator),
    # each judged by the same rule on the same table; the verdict stays on the binding one
    readings: Readings | None = None

    @property
    def table(self) -> str:
        return self.column.split(".", 1)[0]


def fraction_verdict(hits: int, total: int) -> str:
    if total == 0:
        return NOT_RUN
    return REPRODUCED if hits == total else (NOT_REPRODUCED if hits == 0 else PARTLY)


def ratio_verdict(value: float, target: float, close: float, near: float) -> str:
    """reproduced within a factor ``close`` of target, partly within ``near``, else not."""
    if not np.isfinite(value) or value <= 0:
        return NOT_REPRODUCED
    factor = max(value / target, target / value)
    return REPRODUCED if factor <= close else (PARTLY if factor <= near else NOT_REPRODUCED)


def reading_firmness(verdict: str, readings: dict[str, str] | None) -> str:
    """Whether ``verdict`` (the binding reading's) holds under each other reading the protocol
    names for its claim: "holds under each other reading", "MOVES under" the ones that give
    another verdict (each with its verdict), or that the protocol names none."""
    if not readings:
        return "no other reading named"
    moved = [f"{name} ({v})" for name, v in readings.items() if v != verdict]
    held = [name for name, v in readings.items() if v == verdict]
    if not moved:
        return "holds under each other reading: " + ", ".join(held)
    return "MOVES under " + ", ".join(moved) + ("; holds under " + ", ".join(held) if held
                                                else "")


def merge_readings(*parts: Readings) -> Readings:
    """One claim's readings from several kinds of them (e.g. a block's variants and an
    operator's)."""
    def readings(table: pd.DataFrame) -> dict[str, str]:
        return {name: v for part in parts for name, v in part(table).items()}
    return readings
