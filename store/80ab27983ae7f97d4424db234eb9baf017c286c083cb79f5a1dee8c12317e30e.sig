alias entropic-bound-2026-12-07-session TPf+kSHeQzbnPk5ecef9llfMNlN6lpUx4l5mHEIR+5/6teXW7EbMf9+iI9ko/vJ6Pgkb0XW7EpPox6zeyNH3Bw==
