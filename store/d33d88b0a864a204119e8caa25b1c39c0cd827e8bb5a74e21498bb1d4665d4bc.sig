entry entropic-bound-paper-2026-12 fY7hcmYZ4LZ89Ey129Lv+wvIH01hh7W4yw9ed+R0W59HD99ZnA+8oFKxwFmR6rX+N3dmt+/D++SGxvbcowp7Dw==
