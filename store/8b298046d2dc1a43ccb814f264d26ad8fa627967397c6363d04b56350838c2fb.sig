alias entropic-bound-migration-2026-12-rules nSDifayLtUvZYyuUxX0bjBYlLfNs++Wu+aF7Z/6m8JH/AZaQWrBDoeHdH+NzS3GNz45zuQYZ84OSwp/6UxNBAQ==
