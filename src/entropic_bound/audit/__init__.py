"""The audit: recompute stored entries on this machine and compare them with the store
(:mod:`.entries`, by :mod:`.trained_comparison`, :mod:`.file_comparison` and the rank bands of
:mod:`.rank_bands`), the jobs downstream of a recomputed entry (:mod:`.downstream`), this
machine's speed against the recording one (:mod:`.calibration`), every verdict with a recomputed
entry in place (:mod:`.verdict_check`) and the study of verdicts across machines
(:mod:`.machine_study`)."""
