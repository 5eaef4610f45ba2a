entry entropic-bound-paper-2026-12 O26E6wI+WNreiN6mVY/nYto3lVlZ8YiVEAYKX0lVGaEbCmFs9ZAsa/AcgLP05ofSgUClxqr3iB58oU/BGHOPDw==
