alias entropic-bound-paper-2026-12 GQOZNk7YtYKtN0vVy/5y+nxIL9UYqNI5xz8BcBN3/Hi0B9zYYhdVBcJ15Zx2htfcLC6A5xg26DEZS7owC6+iBg==
