alias entropic-bound-2026-12-07-session Arb6e3pnVzls/7Q1T+5JA/MZbR8V0hYWEa29U9rB9NkJxE3P0GgrBgjDwo2yKRgA43xdq/mKAW7JWLeoAys+AA==
