alias entropic-bound-2026-12-07-session 0EWMbjo5/kZnS8zhsYbzMzGHKq/XTeZ7Dq3pDiR/fb4OP8hEx/lRaWsYP9/ki5wF8nE4uoTUAag1iPwl6awlCA==
