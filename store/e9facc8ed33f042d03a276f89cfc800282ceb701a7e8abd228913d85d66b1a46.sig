alias entropic-bound-migration-2026-12-rules M8BW9rySRZNb0CXuCaBwh1JRarfTJHA3mrtvP0pTZrfgCyK1EA1Lvr+c7YK+pCzTd0r/9Y9yjAi/EgSBrVNoCg==
