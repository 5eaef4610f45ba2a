alias entropic-bound-migration-2026-12-e6 cZA6Ly6E0IoN1tpWTuZ+kc/l8RPBHvNCOjSwl6XWLlKNi0JlbIztEWtvpeorZoswFOA87VBal8H/Be3+c+rOAQ==
