alias entropic-bound-paper-2026-12 4i6jlyCGSZK29VZZTuYAE1O+943eO9D+XkrK+TR1nVw3tNI1Rmv/93nQshO7HB2qIr0owE33wXovJqIQupO+AQ==
