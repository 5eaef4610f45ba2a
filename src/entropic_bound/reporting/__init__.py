"""From cached results to what people read: the tidy tables, the rendered report, the
costs of a run from Snakemake's benchmark files, and the published snapshots."""
