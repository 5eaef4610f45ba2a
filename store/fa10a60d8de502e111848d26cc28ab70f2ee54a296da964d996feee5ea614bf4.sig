alias entropic-bound-paper-2026-12 ySqFr3fN1o0ANfLPiV0E4mS30A4dQ/Hztok74a/ttrDXEJrQ/D4YcPG/rEhH33fFwyChz3JfKAnEUKcoDLi/Dw==
