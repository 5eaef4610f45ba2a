entry entropic-bound-paper-2026-12 a6ErCFLvk18/QAvhzRA3BVVGnYYrurE7GKILukZESj0+bA5cKIE6CxcbBHxxOu9jRRKTmwUV8/0cOqfFhA3/BQ==
