entry entropic-bound-2026-12-07-session zCGjI2zS9/f8yQCTpENoId+UFWTJ1yZYmZ/Eax52xqti9ikDDQsygi3KDUIwEucsxlObU771deYXqzr6b+i+BA==
