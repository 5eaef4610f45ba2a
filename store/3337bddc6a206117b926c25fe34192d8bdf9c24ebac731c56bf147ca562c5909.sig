alias entropic-bound-migration-2026-12-rules AGpQ57wYbcPtfxH6Bo/v3+Hhccry8+ZTEPJD3wOockLPF2dlEnjJu+uACZv4J2cizjrRzPt5YO91SxAR1KZHDg==
