alias entropic-bound-paper-2026-12 xRToJzOtiRDOHVHbp+hqs7YSFq12jD8FY7rQGltRNtbNPQhdZyCQNnJzJjoAnA4ZJMh++oBSQ/6hLYoFdA5hAA==
