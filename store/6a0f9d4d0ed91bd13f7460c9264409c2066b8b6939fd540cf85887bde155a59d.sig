alias entropic-bound-2026-12-07-session orbOYDL+Z7j8PxRF+bZXL9+nFbTwpjIb06AZlGnLYp+SuxbWsJSCnBKrynKqFifRJ/kvhm5b7SZQ0FpSfMvcBQ==
