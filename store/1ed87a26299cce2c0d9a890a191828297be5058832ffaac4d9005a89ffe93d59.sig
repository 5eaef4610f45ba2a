entry entropic-bound-paper-2026-12 8sjsPdpSTaHOzSLEr9D0E0g5XkPThrvndZe/Stsn/3EVtObSVcgWmoHGP5XB8T2I/69Zv1DCRuZxX2rMf/ZlDw==
