alias entropic-bound-migration-2026-12-rules Q2qRC6VVFj0lszNRntvD6CykuinGphfBioa/Wv8l/i0RN6g6JEfvSvPZNc85dj/7nO4EMVNu1nuNIEWmtXD/Dw==
