entry entropic-bound-2026-12-07-session t6eqvG8jj9IrXgxxGJELqfbfsvDa0TP/VP4jWo7lkO1Bm0UujgJZaxXO7R1+pqRHcoD1d/nneKH+l1h7UrZPDg==
