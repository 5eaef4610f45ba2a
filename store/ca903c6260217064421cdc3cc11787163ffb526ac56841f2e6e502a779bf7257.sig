alias entropic-bound-migration-2026-12-rules v5lgbN75ecbt9KphFcI1wxyOGqAM4fghZwM5QvEZc38dmm/Nqy+n/vQYgl4dwhOVFTh0qLQY/KoklCmQ6dYgAw==
