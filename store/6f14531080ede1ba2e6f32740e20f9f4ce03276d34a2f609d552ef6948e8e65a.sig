entry entropic-bound-paper-2026-12 bLmOrvpRtqM3gZutzAszQOi/8SfrswSavgQ54b7v7fi+b3CkqZVxDxgRRAtfu7ji+ERsA2x9p/dGSM/JlnrIDA==
