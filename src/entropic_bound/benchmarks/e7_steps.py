"""E7's pilot (docs/protocol.md, "E7"): the seconds of one training step at each depth and
width, as ratios to E6's depth-2 step in one run, and the grid's training cost priced from
them.

``python -m entropic_bound.benchmarks.e7_steps`` times one AdamW step as E6 trains it (bf16
autocast, batch 32, context 64, the schema's architecture but its depth, one thread;
:func:`entropic_bound.benchmarks.e6_steps.step_timer`) of every (layers, d_model) of
``config.yaml``'s ``e7.cells`` and of depth 2 at the same widths, interleaved step by step (the
median of ``--steps`` steps each), so a load on the machine slows them alike. A cell's cost is
priced as E6's mean recorded job-seconds at its width (``--e6-seconds WIDTH=S``, from the
store's records) times its step ratio to depth 2: stopping steps may differ with depth, which
the pilot cannot see. It trains nothing to its end and stores nothing.
"""

from __future__ import annotations

import argparse
import statistics

import torch
import yaml

from entropic_bound.benchmarks.e6_steps import step_timer

E6_DEPTH = 2


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--config", default="config.yaml")
    p.add_argument("--e6-seconds", nargs="+", default=["64=266", "128=306"], metavar="WIDTH=S",
                   help="E6's mean recorded job-seconds of a depth-2 cell per width")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    with open(a.config) as f:
        config = yaml.safe_load(f)
    cells = [(c["layers"], c["d_model"]) for c in config["e7"]["cells"]]
    runs = len(config["e6"]["corpora"]) * len(config["e7"]["seeds"])
    seconds = {int(w): float(s) for w, s in (x.split("=") for x in a.e6_seconds)}
    shapes = sorted({*cells, *((E6_DEPTH, w) for _, w in cells)}, key=lambda c: (c[1], c[0]))
    timers = {shape: step_timer(shape[1], True, layers=shape[0]) for shape in shapes}
    for run in timers.values():  # warm-up
        run(), run()
    times: dict[tuple[int, int], list[float]] = {shape: [] for shape in shapes}
    for _ in range(a.steps):
        for shape, run in timers.items():
            times[shape].append(run())
    median = {shape: statistics.median(t) for shape, t in times.items()}
    print(f"CPU capability {torch.backends.cpu.get_cpu_capability()}, torch {torch.__version__}, "
          f"median of {a.steps} steps, one thread, bf16")
    total = 0.0
    for layers, width in shapes:
        ratio = median[(layers, width)] / median[(E6_DEPTH, width)]
        line = (f"depth {layers} d_model {width}: {1000 * median[(layers, width)]:.1f} ms/step, "
                f"{ratio:.2f}x depth {E6_DEPTH}")
        if (layers, width) in cells:
            cost = runs * seconds[width] * ratio
            total += cost
            line += f"; {runs} cells x {seconds[width]:.0f} s x {ratio:.2f} = {cost:,.0f} s"
        print(line, flush=True)
    print(f"E7's training, priced: {total:,.0f} job-seconds")


if __name__ == "__main__":
    main()
