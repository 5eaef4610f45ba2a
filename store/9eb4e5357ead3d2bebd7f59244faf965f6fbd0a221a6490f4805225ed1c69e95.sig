alias entropic-bound-2026-12-07-session mboI+nPQ3p5Zr3L0ksAPgLMM5Yo20FzRDKeJ3yqnHzBw+YpvlRhJCZK2G+d8M2Hp9H5s2/F4y2BzHdRyKVpXDA==
