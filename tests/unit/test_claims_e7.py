"""E7's claims (open problem (iv), pre-registered: claims/e7.py) on constructed cells: per-head
measures of every (depth, d_model, corpus, seed), built into ``table7_stats`` by the workflow's
own :func:`entropic_bound.tables.e7.table7`, one table that passes each rule, one that is
partly and one that fails (tests/unit/test_claims.py gathers ``CASES``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.claims.rules import NOT_COMPARABLE, NOT_REPRODUCED, PARTLY, REPRODUCED
from entropic_bound.tables.e7 import table7, with_depth

CORPORA = ("english", "shakespeare", "python", "linux", "json", "music")
OFFSETS = np.linspace(-1.0, 1.0, len(CORPORA))  # each corpus's place in the spread
CONFIGS = ((2, 64), (4, 64), (6, 64), (4, 128))
HEADS = 4


def cells(spread=lambda depth, layer: 0.05 if layer == 0 else 0.02,
          level=lambda depth, layer: 1.0 - 0.5 * 0.5 ** layer,
          init=lambda depth, layer: 0.93, loss=lambda depth, d_model: 2.0 - 0.1 * depth,
          stop="patience", configs=CONFIGS) -> pd.DataFrame:
    """Per-head measures of every cell: the static Reff of layer l is d_head * level(l) *
    (1 + spread(l) * the corpus's offset), its initial value d_head * init(l); the other
    measures follow the static one; every cell stopped by ``stop``."""
    frames = []
    for depth, d_model in configs:
        d_head = d_model / HEADS
        for corpus, offset in zip(CORPORA, OFFSETS):
            for seed in (0, 1, 2):
                rows = []
                for layer in range(depth):
                    static = d_head * level(depth, layer) * (1 + spread(depth, layer) * offset)
                    for head in range(HEADS):
                        rows.append({"corpus": corpus, "d_model": d_model, "seed": seed,
                                     "layer": layer, "head": head, "static_reff": static,
                                     "static_reff_init": d_head * init(depth, layer),
                                     "mean_attn_reff": static / 2, "per_input_reff": static / 3,
                                     "participation": static / 4, "whitened_reff": static,
                                     "val_loss": loss(depth, d_model) + 0.01 * offset,
                                     "stop_reason": stop})
                frames.append(pd.DataFrame(rows))
    return with_depth(frames)


def t7(**kw) -> pd.DataFrame:
    return table7(cells(**kw))[1]


# layer 0 spread across corpora 0.05 vs 0.02 elsewhere: the first layer varies more
FIRST_WIDER = {}
LAST_WIDER = {"spread": lambda depth, layer: 0.02 if layer < depth - 1 else 0.05}
MIXED_SPREAD = {"spread": lambda depth, layer: (0.05 if layer == 0 else 0.02) if depth == 4
                else (0.02 if layer < depth - 1 else 0.05)}
# saturating (default), rising without shrinking increments, falling
LINEAR = {"level": lambda depth, layer: 0.5 + 0.08 * layer}
FALLING = {"level": lambda depth, layer: 0.9 - 0.08 * layer}
# drops from initialisation: largest in layer 0 (default init above the saturating levels),
# largest in the last layer, mixed
LAST_MOVES = {"level": lambda depth, layer: 0.9, "init": lambda depth, layer: 0.91 + 0.01 * layer}
MIXED_DROP = {"level": lambda depth, layer: 0.9,
              "init": lambda depth, layer: (0.95 - 0.01 * layer) if depth == 4
              else (0.91 + 0.01 * layer)}
# held-out loss with depth at d_model 64 (the one width with three depths)
LOSS_FLAT = {"loss": lambda depth, d_model: 2.0}
LOSS_NOT_EVERY_STEP = {"loss": lambda depth, d_model: {2: 2.0, 4: 1.9, 6: 1.95}[depth]}

CASES = {
    "E7.task_specific": [
        (t7(), REPRODUCED), (t7(**MIXED_SPREAD), PARTLY), (t7(**LAST_WIDER), NOT_REPRODUCED),
        (t7(stop="max_steps"), NOT_COMPARABLE)],
    "E7.saturation": [
        (t7(), REPRODUCED), (t7(**LINEAR), PARTLY), (t7(**FALLING), NOT_REPRODUCED)],
    "E7.first_layer_moves_most": [
        (t7(), REPRODUCED), (t7(**MIXED_DROP), PARTLY), (t7(**LAST_MOVES), NOT_REPRODUCED)],
    "E7.depth_helps": [
        (t7(), REPRODUCED), (t7(**LOSS_NOT_EVERY_STEP), PARTLY), (t7(**LOSS_FLAT), NOT_REPRODUCED)],
}
