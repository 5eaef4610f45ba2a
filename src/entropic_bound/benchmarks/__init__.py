"""Speed measurements, outside the science: the trainer cells against the naive loop and
their floors (``bench``), and every matrix product of a step timed at its own shape
(``gemm_floor``). No workflow rule runs them."""
