alias entropic-bound-migration-2026-12-e6 PTmyoLaKXBxsmn0qA6CGMA9ImuknM4aMbhIqy3+ZCm7ss/J5KiBNlpCqd/4i5JZ2F/+6LxDYFOhVayL2ZWi/AQ==
