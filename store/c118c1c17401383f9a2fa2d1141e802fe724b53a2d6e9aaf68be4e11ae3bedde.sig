entry entropic-bound-paper-2026-12 czXC9tZf446tSpA/n8WlyL4i5YTyCEV3H3Pq25t8YM/ztjU67iaV5ytdIeRSe1Wl128xAonHbMl+OEcUvN++CA==
