alias entropic-bound-paper-2026-12 twHlOojWxp8j9myygDIRvK/PxbzsXzId2UXG3N6YhL/O78lNNNrTDnIPovqNj5e/ccesyP7MizBY/J5RMXjtBw==
