entry entropic-bound-paper-2026-12 +3o2Ee4hSTdtHHXm1roYnZhTQJK+lVHL6wKda+ZD41GyAuBUitRK9e7Khjqcwx7pwsBBNxfmCH4At/4IOB68DA==
