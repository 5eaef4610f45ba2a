alias entropic-bound-migration-2026-12-rules kb/IN4+1nDbuIxodcqUp8uYFBxgwOOeKUb0SnkqmJ06hXp31kRK74i3RvM+/tKzHOyuYsMvn1mqOaAl1dvnMAQ==
