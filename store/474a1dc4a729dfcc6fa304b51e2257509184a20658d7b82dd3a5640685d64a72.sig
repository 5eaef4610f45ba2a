entry entropic-bound-paper-2026-12 +plJzbymmWv9OsCk+X/2vZiT153oqpU7FW1CuawwkjVs6/K5w8aty/L8K/2/Fq56tmwtEBeMyNrKtgdRjtrBBg==
