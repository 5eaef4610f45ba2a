"""Benchmark of ``entropic-bound inspect`` on a GPT-2-small-sized model: 124 M
parameters built from ``GPT2Config()`` with random weights, saved to a temporary folder, then
inspected on ``--windows`` windows of ``--context`` tokens of a text, on ``--threads``
threads. Prints the whole command's time and where it goes: loading, the forward pass with
attention maps, the kernel measures (static and whitened, through the head factors) and the
realized-attention measures (one SVD per window and head).

    python -m entropic_bound.benchmarks.inspect_gpt2 --text results/corpora/english/text.txt
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--text", required=True)
    p.add_argument("--windows", type=int, default=32)
    p.add_argument("--context", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args(argv)

    import torch
    import transformers

    from entropic_bound.measures import heads, spectra
    from entropic_bound.measures.inspection import inspect_model, text_windows
    from entropic_bound.models import hf

    torch.set_num_threads(a.threads)
    with tempfile.TemporaryDirectory() as tmp:
        torch.manual_seed(0)
        model = transformers.GPT2LMHeadModel(transformers.GPT2Config())
        params = sum(q.numel() for q in model.parameters())
        model.save_pretrained(tmp)
        del model
        text = Path(a.text).read_text(encoding="utf-8")[:2_000_000]
        sample = Path(tmp) / "text.txt"
        sample.write_text(text, encoding="utf-8")

        t0 = time.perf_counter()
        frame = inspect_model(tmp, sample, count=a.windows, context=a.context, byte_tokens=True)
        total = time.perf_counter() - t0

        # where it goes: the same steps, timed one by one
        t = time.perf_counter()
        model = hf.load(tmp)
        load = time.perf_counter() - t
        ids = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
        x, _ = text_windows(ids, a.context, a.windows, a.text)
        t = time.perf_counter()
        _, seen = hf.probe(model, x)
        forward = time.perf_counter() - t
        kernels = realized = 0.0
        for block, probe in zip(hf.blocks(model), seen):
            factors, ffn_in = hf.layer_parts(model, block)
            t = time.perf_counter()
            cov = np.cov(probe["input"].astype(np.float64).reshape(-1, probe["input"].shape[-1]),
                         rowvar=False)
            root = heads.sqrt_psd(cov)
            for wq, wk in factors:
                spectra.product_singular_values(wq, wk)
                spectra.product_singular_values(wq, root @ wk)
            spectra.rstable(ffn_in)
            kernels += time.perf_counter() - t
            t = time.perf_counter()
            for head in range(len(factors)):
                attn = probe["attn"][:, head].astype(np.float64)
                spectra.reff(attn.mean(axis=0))
                spectra.reff_stack(attn)
                heads.participation(attn)
            realized += time.perf_counter() - t
    print(f"GPT-2 small ({params / 1e6:.0f} M parameters, random weights), {len(frame)} heads, "
          f"{a.windows} windows x {a.context} tokens, {a.threads} thread(s)")
    print(f"inspect: {total:.1f} s in all; load {load:.1f} s, forward with attention maps "
          f"{forward:.1f} s, kernel measures {kernels:.1f} s, realized-attention measures "
          f"{realized:.1f} s")


if __name__ == "__main__":
    main()
