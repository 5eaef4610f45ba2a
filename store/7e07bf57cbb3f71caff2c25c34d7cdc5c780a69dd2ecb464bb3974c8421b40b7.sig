alias entropic-bound-2026-12-07-session ZD0ccKUDzwqe9i8kor2QElRq9/d0v01jmewUHDj7wr4ZZe1qV/l+Q3mmX3IWUmReaZ1GPNcAlqhX+2poQTrrAQ==
