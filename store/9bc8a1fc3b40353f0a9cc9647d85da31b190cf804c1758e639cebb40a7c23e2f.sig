alias entropic-bound-2026-12-07-session lEZSNjcVt6VonnH9Gwod3pja4el+q3o9IGmK/aU/NWKU0xo0A5iLIX4u+W7SLsTz9+qqdIsCSXfQ6nECv/zLCA==
