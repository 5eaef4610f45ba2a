alias entropic-bound-paper-2026-12 vbb2hslOdaECquEmPbwwTajngn0Y+JRWYLqhzZu7HleA3Fr9G3wM7JS4FYj/ASZ4jqVCH/xnMIBmk5d/rNqfBg==
