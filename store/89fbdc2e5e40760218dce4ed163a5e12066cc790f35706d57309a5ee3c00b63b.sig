alias entropic-bound-paper-2026-12 P5VzWI+FBuCfhb4eR+CSZrY0whko/y6fOZ+fx6uURnS4I7Inhbe8itGy6XMjHwSuNn2LsH/26SDdvSgVI5eaCQ==
