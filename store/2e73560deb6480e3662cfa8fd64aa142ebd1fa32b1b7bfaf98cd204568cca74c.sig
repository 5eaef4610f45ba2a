entry entropic-bound-paper-2026-12 D+zhduuqCxG6iF+Wnb10jxH/XXEu7KHm28Bt0bqZRUq+2v+5ZJo6Y/yFZoVxBNrKMXqbS4dnowuUUlwcBanuAA==
