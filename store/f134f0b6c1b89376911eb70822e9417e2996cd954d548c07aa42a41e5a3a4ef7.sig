alias entropic-bound-migration-2026-12-rules YLOyVdM/+sJN3aKmfBDhm4XRpOIZZXbCTKEZ1EfB2+x4TcEkMCJMWsTUMv/BNFvztB1gHPW7Nk23haoGg+eaAw==
