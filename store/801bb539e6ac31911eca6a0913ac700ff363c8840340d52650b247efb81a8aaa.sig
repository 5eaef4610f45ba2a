entry entropic-bound-paper-2026-12 mDfA5n+asPf+1K6/z7KLj+4uAIv4i5Qz1tF0AEgGL4ActShp7O3OKybI6Njk5R089IHUhEdS21A5+s3tSMblCQ==
