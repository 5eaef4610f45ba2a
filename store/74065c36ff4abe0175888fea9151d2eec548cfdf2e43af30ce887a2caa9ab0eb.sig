alias entropic-bound-2026-12-07-session QYJzd//+wpm46XLufM4eCVLTqNx02Z1YsRMkFOVSbFL/rn+93OzXxNyP7q+6MkuznzW0y9b5EgPWkogXNI+pCA==
