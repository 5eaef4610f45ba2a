alias entropic-bound-2026-12-07-session VfpcGYDCuG40Xg7t0Bp/EUYJMZTomlX5ioLvpVVP8734JUN/VtISMuLjxdzJ6t7p621/W+aHwgMFShIBvrARBA==
