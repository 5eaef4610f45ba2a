entry entropic-bound-paper-2026-12 2qvRwa6Ze7JzRP1Ab/KO2LT/93nAG2D9+rZtdh3ybDSGiZXsPpTlmL8bgTZhN84zWcCltXRsZ+Ovd1On9lAkDw==
