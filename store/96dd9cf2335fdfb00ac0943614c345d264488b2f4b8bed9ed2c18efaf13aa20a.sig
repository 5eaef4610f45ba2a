alias entropic-bound-paper-2026-12 Mm++2o+LtQQs/ezro7ldfH2u0tOVuqLEeLEomprjHs99V83IvumNmu+f4ri/E2c9Nb9N0Q3Zc45v/uskGtvsBg==
