alias entropic-bound-migration-2026-12-rules 9sr+loyM/j9NUsWXln6i1q8dz5Lpksq3Eli6838Ql+81Wzp+EApE3fEMGlKrOCgwJL78aYPlnDPE3CJyQ43XCw==
