alias entropic-bound-migration-2026-12-rules XVMXVw6WLD4UqEtawCytC+cKJmfe+gJSe6P+Yr+3+C1Tousz+xvzKtG8wS2dbVHNYqvG4m/wKgcmhL0Hj5KeAg==
