alias entropic-bound-migration-2026-12-e6 +gzPoYbjtytnAbmmuS4g+tNWAu9QupNF1RwRV1s8PQTd8Wut+gaQls355GzNhwZ/bUVuZfU6nvsxEyhE9bT5DA==
