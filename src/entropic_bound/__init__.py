"""entropic_bound: the library behind the reproduction of "The Entropic Bound for Transformers".

Modules: spectra (measures), teachers (synthetic tasks), data (dataset files), students and
train (models, full-batch Adam), grid (Table 3 cells), measure (learned-kernel spectra),
tables (aggregation), claims (published numbers and verdicts), report (rendering), cli.
Submodules are imported on demand so that numpy-only jobs never pay for torch.
"""

__version__ = "0.1.0"
