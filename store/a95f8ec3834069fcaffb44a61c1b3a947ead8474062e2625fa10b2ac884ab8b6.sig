alias entropic-bound-paper-2026-12 e2/e/cZBNO/oC4mmMPj7s2UNR4c1kx97bRsc2xTNFOUwsWAeqFCosBYpYjG5oRBif6HYUXzJ2PGlqUUma0/DAw==
