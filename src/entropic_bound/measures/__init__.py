"""Spectral measures of trained cells and data-only estimates: effective ranks
(``spectra``), the per-machinery measures (``grid``, ``fixed``, ``lm``), Table 2's achievable
bounds, the data-only estimators of E1/E4 and their held-out fits, and the data side of E6."""
