entry entropic-bound-paper-2026-12 HbtKjqy9GFQcW1m9uNc4e0nq+YC5EdupAd4N0svLSiwDf83++i3KiU6O2geaqymarGT5jj1dvJfFR8Lq+6CuBw==
