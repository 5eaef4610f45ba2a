entry entropic-bound-paper-2026-12 NR72H2D9QhMu7ZRwK3nTQRx+I4JKNi1JwjBSujChntCbk7ntL3eXBHbcTd3DoVw/9AjT6b/dtkPmNk0y+VwSDQ==
