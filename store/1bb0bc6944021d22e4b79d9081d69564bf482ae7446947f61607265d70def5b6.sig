alias entropic-bound-migration-2026-12-rules 1foYCEA/GZIm6I/7BBv509gGvOjms/VepAuFR+x5mOz3PHHHWftLm9lDbMUzfhif15mROQ/FqMvcF77ifQSYBw==
