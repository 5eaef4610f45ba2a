alias entropic-bound-migration-2026-12-e6 flzAzz5aXc6lsamIS7TQNntAtwNQQ+KlpcaqXnDvgoqVZTo2jROsLYSH/YDfBnMlxgftmo3HgJad+Q4mB6d+CQ==
