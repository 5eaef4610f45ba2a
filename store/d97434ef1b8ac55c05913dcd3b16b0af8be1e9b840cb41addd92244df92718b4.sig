alias entropic-bound-paper-2026-12 sq2qGhe/yicWw+/+YfZVjXE9qvPLZMgVBoS6zcoR1W2OI3PybYMhaopL2/OwfQDyjckna42G1ZLkuxe27ZAiBg==
