entry entropic-bound-paper-2026-12 sRCXCcFKnR9WC24U4+fiGMCfLAcfd+3r5bm58j5IHZCQo2YClv/NErRCg5eDfCbApQOJyKLEdw3VmdbTPN+VCA==
