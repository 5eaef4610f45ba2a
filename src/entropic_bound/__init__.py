"""entropic_bound: the library behind the reproduction of "The Entropic Bound for Transformers".

Subpackages by role (docs/design.md, "Module map"): ``data`` (teachers, corpora, tokens),
``models`` (students, the E2 ladder, the char Transformer), ``training``, ``measures`` (spectra,
estimators, the E6 measures), ``claims`` (the paper's numbers and the rules that judge them),
``reporting`` (tables, report, costs, snapshots), ``plumbing`` (atomic I/O, settings, code
inputs, timers) and, outside the science, ``benchmarks``. ``cli`` is the one entry point of
every workflow rule; ``verify`` checks every cached file. Nothing is imported here: submodules
load on demand, so numpy-only jobs never pay for torch.
"""

__version__ = "0.1.0"
