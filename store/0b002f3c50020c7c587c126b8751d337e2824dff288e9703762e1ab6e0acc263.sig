entry entropic-bound-paper-2026-12 9F5RlBbMiVuW/Eea/zKjK+zdKWKqT9WRuPnpShGUx763+nWDy44vUyG6623pStW4/nugz+hDYuBgxgDc2kFMAw==
