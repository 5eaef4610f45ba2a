alias entropic-bound-2026-12-07-session U0qAS/U7Xo8X2eJ0r9Gm/7YmPx+5HoQb5k+REKzKnhs5vLmOzqsTIJHyT7PBs8//z3LZyGloydVkgD74yYzwCw==
