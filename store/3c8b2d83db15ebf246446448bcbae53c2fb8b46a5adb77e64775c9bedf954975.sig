alias entropic-bound-paper-2026-12 4e8abbZvqsYrMPj9LZz7gLoiE7L/+H8Qa9uf/mY8gK+xOZH6gLBrTHABaJmdRsyH/Nuw77QXDhjTcGMXPC47Dw==
