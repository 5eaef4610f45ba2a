"""Weights files of the char LMs of App. B: the kept weights of a cell (``<cell>.npz``) and,
where training was asked for them, its checkpoints (keys ``step<k>/<parameter>``)."""

from __future__ import annotations

import torch

from entropic_bound.models.lm import CharTransformer, LMShape
from entropic_bound.plumbing.atomic import open_npz


def checkpoint_prefix(step: int) -> str:
    return f"step{step}/"


def load_model(weights: str, vocab: int, d_model: int, shape: LMShape,
               prefix: str = "") -> CharTransformer:
    """The model stored in ``weights`` (float32 whatever the file's dtype); ``prefix`` selects
    one checkpoint of a checkpoint file (:func:`checkpoint_prefix`)."""
    model = CharTransformer(vocab, d_model, shape)
    with open_npz(weights) as z:
        model.load_state_dict({k.removeprefix(prefix): torch.from_numpy(z[k]).float()
                               for k in z.files if k.startswith(prefix)})
    return model.eval()


def checkpoint_steps_in(path: str) -> list[int]:
    """The steps stored in a checkpoint file, in order."""
    with open_npz(path) as z:
        return sorted({int(k.split("/", 1)[0].removeprefix("step")) for k in z.files})
