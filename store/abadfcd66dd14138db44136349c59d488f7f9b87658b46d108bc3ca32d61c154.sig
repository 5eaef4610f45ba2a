entry entropic-bound-paper-2026-12 90Bd578LEVbuL/unCSkCJ5f0M+xfjsbQl3VF33EPXFtcWyUGGqJA3GW+OLsuUx0tHQuXpkID9z/q0I1uNfnsDg==
