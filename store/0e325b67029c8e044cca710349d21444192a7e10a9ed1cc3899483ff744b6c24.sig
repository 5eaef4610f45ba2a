entry entropic-bound-paper-2026-12 IOrBjjBWvliYy/ZLCqoq2eqvO4U9k+FDOFGRhDljLZ+dU//0uNH52MnnCdzLrwAjbQb4kc1k3RIpMhdoHhUUBw==
