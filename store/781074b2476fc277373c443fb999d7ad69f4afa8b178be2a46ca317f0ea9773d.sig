entry entropic-bound-paper-2026-12 QHbA9auI84vX/CkU5QW2EnIArLahWsAg+/y/afZ9L0Bu0T5A+2VBuIPtb9hhQtwai2zJ1D9RruqNvKjKHFr4CA==
