alias entropic-bound-2026-12-07-session +L4NyM9qWB2QPinpSxlMSld71sWKfM9eDgrgAs9Pmtj1EQI8rAyZV+5npfHxtIG0/H35gQOyT9/nOq38bPLHDQ==
