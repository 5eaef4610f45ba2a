"""entropic_bound: the library behind the reproduction of "The Entropic Bound for Transformers".

Modules by role (README "Library"): data (teachers, mixers, data, corpora, lazyload, tokens),
models (students, ladder, lm), training (train, fast, train_grid, train_fixed, train_lm),
measuring (spectra, measure_grid, measure_fixed, measure_lm, achievable, estimators,
corpus_stats), results (tables, published, claims, report, costs), plumbing (atomic, verify,
settings, code_inputs, bench, cli). Submodules are imported on demand so that numpy-only jobs
never pay for torch.
"""

__version__ = "0.1.0"
