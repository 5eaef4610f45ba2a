alias entropic-bound-paper-2026-12 vNGkPtpnkm2/GhCwAFf2bQEL9WNnbcD4crB1EvJBmWg1NDMJWSyqBO4qLm+4ff/Dj+lROJBQ6+j/hsEV8ajGDw==
