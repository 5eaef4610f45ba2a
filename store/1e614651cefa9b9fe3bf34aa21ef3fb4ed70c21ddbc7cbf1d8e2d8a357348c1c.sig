alias entropic-bound-2026-12-07-session e/4aFmPMs+9+SGWMMIa//x2CRf28goN846Y3HUyj8y0slK59G3ulTwUkoX2iS9JN4o9XvuY9h0EN8dF90KgMBg==
