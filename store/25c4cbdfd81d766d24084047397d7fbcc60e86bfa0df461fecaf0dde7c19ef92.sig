alias entropic-bound-migration-2026-12-rules f9+qDD2LL1973xaOrK1HBCDP+3u2BXCvsoussevFzPCz8pLDI+E3j9V7Cur5B36FLL88s6D+CxR1comdltC6AQ==
