alias entropic-bound-paper-2026-12 3IoaOJnVLfH+3Q/N/0JdgAEFdrZq9Lwm7x0nNJP5mdQ1wzWmicLJK5oIi/aCi9P1DhlriPp0801LbQY8TvtsBg==
