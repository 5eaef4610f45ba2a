alias entropic-bound-2026-12-07-session zKQ1FEL/BY7aBBsaiDlCSXAd3aT/rWa2Kkm4xYivbETBiVs++pq/51SbeaY+Ic5ZLVFudQDfqsiZkJGb1oL/Cw==
