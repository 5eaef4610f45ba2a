alias entropic-bound-migration-2026-12-rules B8QFfNr1Hv2yF/sDSataTQpZdiNHGRo0mnnMK8TDeHNc/VJIdi6ubyFeojb/h+D0b3ECRDbAy4nyYadCwm3fBA==
