alias entropic-bound-2026-12-07-session R1EEgSwTCPtrO+Eph/as+b+J81C1TjCQlLJWeNI9z6s6GFJjmMxC3vmCWEi+QGWRD7Fbfn7ATA2T0Xj2yIo4DA==
