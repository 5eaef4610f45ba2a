entry entropic-bound-paper-2026-12 zOQ8ofJwr2FPz8VMNay/I+pnSOEUA3U+POv2J4qv6mIy0usCAf9hMcOirCD+j/Yd0i1tgLEboLsXage23ud3DA==
