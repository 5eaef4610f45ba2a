alias entropic-bound-2026-12-07-session Bt/tOEO/D8g2VIZwnsqtm3grPZZu8/W0nnP2+AoouzYr7wPui8SMgBMkpcUM5sW+yVS7EFNnLf038AO7jZ94DQ==
