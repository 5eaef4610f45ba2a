alias entropic-bound-migration-2026-12-rules 8Z/cB5ySDjJ57elpd7tCk/RUV0ppBB1rhsXS8Xyg+UvV//TMfPHm8b6BqFJHJEtwihpZIYdAOvWvVfF5W8uiDA==
