alias entropic-bound-migration-2026-12-rules 0FxUzvQUH511OYqQaHPz0OPde+9nKw/H1RAbMXqL7zhDJE2wXkcy+OkYO/LweP/kzaw2vzjwqCX2463CPuBUBA==
