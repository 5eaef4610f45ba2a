alias entropic-bound-migration-2026-12-rules qHFMjSe/viyxpbOdxgJwkiYllS/xvkfw+1u+arRJf9Gp1YsaIQmwElC3ses7wwZXfl1lXZjBxKO4B3rHnnJ1CQ==
