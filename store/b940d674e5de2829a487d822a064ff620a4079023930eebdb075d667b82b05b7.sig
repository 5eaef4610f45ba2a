alias entropic-bound-paper-2026-12 GX2XGhP9Y3W3HCMdSTh1NMg/E9QuSdSvlXx7Uwk/6for52I1in8/p1eLeHiSbnsgiBu+Ovp1z3jfrEPeouMvDw==
