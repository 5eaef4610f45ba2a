alias entropic-bound-migration-2026-12-rules A7IvJV6Borx+JB/+Tsi4F5fyGjeN6/+SsrRMKi1gAr/w1aQmWh118xxfypWpnGK8MAVaUUjzIDWYDMplb+OwBQ==
