alias entropic-bound-paper-2026-12 /oO317xueYis4mELPAzdkgKnEv7IL5uzVTc/Urm2U+13VF++8f0qkfcUTx/t9TMMC2Zq88BvUsBvd4b0mX12CA==
