alias entropic-bound-2026-12-07-session Z6IHioDZkXZ6d6l22bgq0/9kluNQE1zZvz+ZM14EZa04tNv9Il+oRv+cEQ3DxdjBN02e2ZhwSBwntGNnxfePAQ==
