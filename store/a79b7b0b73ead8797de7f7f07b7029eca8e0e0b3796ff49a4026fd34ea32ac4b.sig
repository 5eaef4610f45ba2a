entry entropic-bound-paper-2026-12 +a5KKepq4Tw9l/orCWWLRZJJPTwEawsu03oi8OzJigykZ0FC+nmb0DkT08E7uRtguj+4r8b5ihZJ+gKlKLR7CA==
