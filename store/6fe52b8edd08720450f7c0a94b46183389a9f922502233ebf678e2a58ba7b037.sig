alias entropic-bound-paper-2026-12 wJs/pWU95S0qOg4KMcdT9Me9DhAY4OHbbEKv17861/v/RpNgQhUZ34Dq0xuWALN83xElR5ZieDc/Y2xx3tKuAQ==
