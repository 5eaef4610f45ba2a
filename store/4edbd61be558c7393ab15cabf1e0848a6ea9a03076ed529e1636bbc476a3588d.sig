alias entropic-bound-2026-12-07-session Q60gBSalYx69N/QwEEFS2opLAduA/SosWe3gun/jyFOHa9Jgb0VQeXUmRSZf61xUpL96HN9xzVKQk+ueGYJ2Cw==
