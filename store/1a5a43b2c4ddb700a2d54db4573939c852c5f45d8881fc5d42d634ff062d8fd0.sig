alias entropic-bound-migration-2026-12-rules H/U9uz/bau8LBJbKtQ2sjiWr7D+bFVFsNSab01Wq/lUjAizfZIYpi8Rxe+9sxHuPifYchpHFM95pEY/SYyP1AQ==
