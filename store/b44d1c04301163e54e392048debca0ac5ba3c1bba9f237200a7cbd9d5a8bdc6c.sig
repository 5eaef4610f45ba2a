alias entropic-bound-paper-2026-12 76e9+wiYDKMqLQkZzMVewHH/OwRsaWifPw60Wm6bNpPRffQzsssRd0uYdmJ8Sycs+B/A0Los19gLMEsPPXLTCQ==
