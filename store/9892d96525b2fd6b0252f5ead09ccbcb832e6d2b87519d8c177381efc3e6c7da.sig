alias entropic-bound-paper-2026-12 gQwM7caqcAi6DazH+yJPO7Zak6dz9/qg3cwVdbmI+5K6QJNK+kXjAO2Cuj8hu29WHG6X69x5LpbwirvL9KHWDA==
