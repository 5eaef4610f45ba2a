alias entropic-bound-migration-2026-12-rules qiGbZ9Yf5Ia0yoapFagswotLQ3I/oh7DPD4I7LZ5PsooMa8ymmJO/+bguplw7Bg9ZtGbA5N+DiE9JfatkLhDAA==
