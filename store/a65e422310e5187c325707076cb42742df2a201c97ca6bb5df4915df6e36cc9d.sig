alias entropic-bound-2026-12-07-session YLT/waJs59RBrG/gBRR7tvoH08GEGlLXQdJLggqMC8+TMI7ut6F2kGD9v/O84b1uWySTU38fb3Hz0nCeh2L2Cg==
