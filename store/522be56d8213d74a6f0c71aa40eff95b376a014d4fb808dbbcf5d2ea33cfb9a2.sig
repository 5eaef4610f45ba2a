alias entropic-bound-2026-12-07-session 0f4nNjGK/dFO1rpAtqgxQWkRQ0+4cUwnbb+ML2Kxz2zSlJOzYCAXKy1JB/1QPaSrsT8L7qmVlLM7upmmhzOKCg==
