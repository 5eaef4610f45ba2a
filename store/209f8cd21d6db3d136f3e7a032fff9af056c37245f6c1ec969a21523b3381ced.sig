entry entropic-bound-paper-2026-12 vSN0JdtfhmXlu+oD9P0iof5yMuKgiSZ0xwNRfsq0G8irMUb+4KNpLaY/kQ1NDGPVon2m/nqYSCcUcaPf6ClfCQ==
