alias entropic-bound-2026-12-07-session 121+ffxOlY8+MHAw1WqdI1wlxlRUB2K+dnwO4uJAVBzSviXaFGHmRpxb5nKPb0+OfbQL2SzaA9ySDMqKbZv1AQ==
