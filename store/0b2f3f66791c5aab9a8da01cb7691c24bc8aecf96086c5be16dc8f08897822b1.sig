alias entropic-bound-migration-2026-12-rules QXLeDeO8KyrLNcZSNF1GVEa/Klk6Q42+pDPYNox+BK1fYyfttyrayEsJcZiLymgAJAZiU/d+mfWIgu0m3hD7Bg==
