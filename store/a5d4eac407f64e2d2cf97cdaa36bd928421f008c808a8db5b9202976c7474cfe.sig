alias entropic-bound-migration-2026-12-rules /X+vuE5Uspi/S0jTZgsXUz/bABTct5ZrYtj2TAQ86dwEroZDKlwCU/bDcpPdNRlInHO8C5Fx0zPvhNuu9WXKBQ==
