alias entropic-bound-paper-2026-12 3/TotvRef/Aa4/K9u8jaL7lj5gAIsLC/NxkQFM5YDznm+0n1eGLttaiXrkHj0/d6B80BqXvHtGsgd1IyttzNBA==
