alias entropic-bound-2026-12-07-session 9vVxrynIS3foso+8OOWrw7cd9pKFDHZ5s+/vwZsKwpPALTm8H3L7nYzgwEd/rGxAqo07tZQNjpHa+TvJwQF3Dg==
