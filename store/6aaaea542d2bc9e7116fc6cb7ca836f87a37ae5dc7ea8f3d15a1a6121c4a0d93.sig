alias entropic-bound-2026-12-07-session EU8JEMMeKITNtd0+zlwruB05zms/g29p/Qtl0rca7/Ulz/DMDQJcQblOrL5YoRl2aARJjWg4z4lxMFNbOn/6BA==
