alias entropic-bound-paper-2026-12 lUL9UkLaQ56rFwT1M76pxK7li8h/jqZBjMXTGESbxw+bu2tK88mbp/rqbnwzgS1ZA+Uq3ZsAaJeX8usKwDPgBQ==
