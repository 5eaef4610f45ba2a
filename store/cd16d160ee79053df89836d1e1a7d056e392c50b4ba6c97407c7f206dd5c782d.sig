alias entropic-bound-2026-12-07-session 8qnhyMAZs/Rv0Hv55CmQ81CEVDEy7bbylIUiQBfecYUgDWadb5Vz711nYl7tuX6is45Shy8AmZ/doleO7//1Cg==
