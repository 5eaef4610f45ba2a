"""What an E6 training step could gain from the field's usual speed-ups, as ratios in one run.

``python -m entropic_bound.benchmarks.e6_steps [--compile]`` times one AdamW step (forward,
backward, update; batch 32, context 64, the schema's architecture, a 100-character vocabulary,
one thread) of :class:`entropic_bound.models.lm.CharTransformer` at d_model 64, 128 and 256,
against the step as trained (attention written out), in fp32 and in bf16 autocast:

* **fused attention**: torch's ``scaled_dot_product_attention`` (causal) in place of the
  written-out maps, which training does not need (the measures do, and keep them);
* **five seeds as one model**: one step on 5 x 32 windows against five steps on 32. A batched
  model with a weight set per seed runs products of the same per-seed shapes, so this ratio is
  an upper bound on what batching a cell's seeds can gain per step;
* **compiled step** (``--compile``): ``torch.compile`` of the model.

The variants are interleaved step by step (the median of ``--steps`` steps each), so a load on
the machine slows them alike; each line is one width and one precision.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext

import torch
from torch.nn import functional as F

from entropic_bound.models.lm import Block, LMShape, build
from entropic_bound.plumbing.settings import schema_defaults

VOCAB, BATCH, SEEDS = 100, 32, 5


def fused_forward(self: Block, x: torch.Tensor, probe: list | None = None) -> torch.Tensor:
    """:meth:`Block.forward` with torch's fused causal attention (same function, no maps)."""
    B, T, d = x.shape
    h = self.ln1(x)
    q, k, v = self.qkv(h).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
    mixed = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    x = x + self.proj(mixed.transpose(1, 2).reshape(B, T, d))
    return x + self.out(F.gelu(self.fc(self.ln2(x))))


def step_timer(d_model: int, bf16: bool, *, fused: bool = False, compiled: bool = False,
               batch: int = BATCH, layers: int | None = None) -> Callable[[], float]:
    """A function that runs one training step and returns its seconds (``layers``: another
    depth than the schema's, E7's)."""
    shape = LMShape(**{**schema_defaults("e6", "model"),
                       **({"layers": layers} if layers else {})})
    model = build(VOCAB, d_model, shape, seed=0)
    if fused:
        for block in model.blocks:
            block.forward = fused_forward.__get__(block)
    forward = torch.compile(model) if compiled else model
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    gen = torch.Generator().manual_seed(0)
    x = torch.randint(0, VOCAB, (batch, shape.context), generator=gen)
    y = torch.randint(0, VOCAB, (batch, shape.context), generator=gen)

    def step() -> float:
        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else nullcontext():
            logits = forward(x)
        loss = F.cross_entropy(logits.float().reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return time.perf_counter() - t0

    return step


def ratios(d_model: int, bf16: bool, steps: int, compile_too: bool) -> dict[str, float]:
    """Seconds per step as trained, and that over each variant's (per seed's) seconds."""
    variants = {"as trained": (step_timer(d_model, bf16), 1),
                "fused attention": (step_timer(d_model, bf16, fused=True), 1),
                "5 seeds as one": (step_timer(d_model, bf16, batch=SEEDS * BATCH), SEEDS)}
    if compile_too:
        variants["compiled"] = (step_timer(d_model, bf16, compiled=True), 1)
    for run, _ in variants.values():  # warm-up (and compilation)
        run(), run()
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(steps):
        for name, (run, _) in variants.items():
            times[name].append(run())
    per_seed = {name: statistics.median(times[name]) / seeds
                for name, (_, seeds) in variants.items()}
    base = per_seed["as trained"]
    return {"step_ms": 1000 * base,
            **{name: base / s for name, s in per_seed.items() if name != "as trained"}}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--d-models", type=int, nargs="+", default=[64, 128, 256])
    p.add_argument("--compile", action="store_true", help="also time torch.compile")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    print(f"CPU capability {torch.backends.cpu.get_cpu_capability()}, torch {torch.__version__}")
    for bf16 in (False, True):
        for d in a.d_models:
            r = ratios(d, bf16, a.steps, a.compile)
            gains = ", ".join(f"{k} {v:.2f}x" for k, v in r.items() if k != "step_ms"
                              and not math.isnan(v))
            print(f"{'bf16' if bf16 else 'fp32'} d_model {d}: {r['step_ms']:.0f} ms/step as "
                  f"trained; {gains}", flush=True)


if __name__ == "__main__":
    main()
