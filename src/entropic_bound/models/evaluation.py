"""The loss of a char LM of App. B on fixed windows: next-character cross-entropy in nats."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    """Mean next-character cross-entropy in nats, in float32 whatever the logits' dtype."""
    return float(F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]),
                                 targets.reshape(-1)))


def validation_loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """Cross-entropy of ``model`` (float32, no autocast) on fixed windows x -> y."""
    was_training = model.training
    model.eval()
    with torch.no_grad():
        loss = cross_entropy(model(x), y)
    model.train(was_training)
    return loss
