entry entropic-bound-paper-2026-12 9YwoBV9Pqe8Dn+OGZ0gZq6Fy/U2682hKnu4sDQ7EQbDoSDFEUsnOvGMYEZCl8LNym0Qkq+jj6j5+4dBt94jpAQ==
