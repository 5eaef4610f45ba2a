entry entropic-bound-paper-2026-12 UDQja6Zp2gZMoLwblLHkio+AfEvOZRQE/NQ8QZiWKCi8Z+3L/w3K3G0kbeotdZESac4ZsV2SpkRAwxwhIx5YBw==
