entry entropic-bound-paper-2026-12 D/NJK2LUEV16dmG7L1jEiYpwiR+YFn93m9hhXrqrR1hAJ6LdhvVMAA87MoMdAlpFzMr07nNSSxL6/PM3F+wqBg==
