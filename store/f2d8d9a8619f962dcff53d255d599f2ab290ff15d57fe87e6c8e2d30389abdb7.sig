entry entropic-bound-paper-2026-12 X6OHIm1+T/2bfl1w/9LSjFGrfXAB/nKVFvW1eatySrtne58a5TYTmu0fNvQx+Us6jyUdLhvHyBAPELCugOzDDw==
