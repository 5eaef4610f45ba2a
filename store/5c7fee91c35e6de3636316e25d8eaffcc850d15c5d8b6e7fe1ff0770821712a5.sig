entry entropic-bound-paper-2026-12 Ig4/p5sb4nwWJE2x+ZKjfQu9sG2i9YnPj0h0gJjLZ17k6v7J4qEWquXxiIEFq0++R5lZBo/TzvlqFsIsCfkdAw==
