alias entropic-bound-paper-2026-12 mfQZ/AgQbNm5PMgGMaIaIUqRf1pQHuFRoGGKP1+Eid+JmVh/F3zRZDSbBwduOjuR/F60pU3NR/iqSqfA7aSVAA==
