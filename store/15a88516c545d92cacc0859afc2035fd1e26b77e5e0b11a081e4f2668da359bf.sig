entry entropic-bound-paper-2026-12 JrY3/jDWUgpqA6pP1DdjLKg80zViA6G1D7klFQ9d/BTpsSql04k5zMr/D/nQCNOl3oA6uX90XPL4qvXBfHJADw==
