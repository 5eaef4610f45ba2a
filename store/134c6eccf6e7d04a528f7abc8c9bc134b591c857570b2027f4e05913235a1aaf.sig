alias entropic-bound-2026-12-07-session z0+JaMhf2oekoHh9AZXk8mGIJVOv8Pe7uk/Ls+GMXha62wf/FTuRuBg7ougRLD1AJ2gbWJDKKRCk2PKCIwKdCg==
