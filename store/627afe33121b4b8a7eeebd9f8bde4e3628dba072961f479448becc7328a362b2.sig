alias entropic-bound-migration-2026-12-rules xJkU6lgdgY8gkvD8eyaUQKYf6U8ITHJW+ja+qR8haQNZz+yjufpt/8xShFmGonQMDxzP1E3cfwXIBhdR3+BzCg==
