alias entropic-bound-2026-12-07-session JCFGAdcQDRzV8Y2tDjcdnDp+pvTntL/+Alsp+B//Le9v3xxRxzh0pEMzQirnwzmYbAG/fuZAfEhV3KY5uEd9Aw==
