alias entropic-bound-2026-12-07-session jriz/m3+ai9Zp45pLCNV7AxeZZG31tOazMQKhG0AA5g9rXyPn2Rlb/oMJ+bB0u4jqXMdq3Z5mh8+jDOrpoOhCA==
