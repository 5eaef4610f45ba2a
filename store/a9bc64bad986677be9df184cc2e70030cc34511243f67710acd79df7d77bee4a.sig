alias entropic-bound-migration-2026-12-rules 62e67SPyaAVhhteiFJMhqSVfcL2/DU8nbO+5WJ5S5V4CrJL130/8MjwzzfOZKv5k7B2TSbyn+cmnXEk+zyCCBQ==
