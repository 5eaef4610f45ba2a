alias entropic-bound-migration-2026-12-e6 JgGiONElTOrW+r0SK5d26qQAGyRYF9qaRKV25AW+GBwauMGDtj3kJzUOHi+afm61gM8rM/PQUikDJiP3eHLKDA==
