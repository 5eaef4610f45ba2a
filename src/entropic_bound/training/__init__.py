"""Training loops: full-batch Adam with converged excess and divergence checks (``loop``),
the fast batched trainer (``fast``), and one driver per machinery (``grid`` for E3/E5,
``fixed`` for E1/E2, ``lm`` for E6)."""
