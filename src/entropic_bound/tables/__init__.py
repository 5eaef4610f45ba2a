"""The paper's tables from per-cell measures: one aggregation per table (:mod:`.aggregate`
for Tables 1-5, :mod:`.lm` for App. B's Table 6) and the one home of each threshold and
criterion its verdict columns read (:mod:`.criteria`), which the claims judge by too."""
