alias entropic-bound-migration-2026-12-rules RRkldd99Fh/U2iLQFXE/vAKchxh4mKzZet/GDbvfoVZ9WXpFW4v0C+Dy9nUzNse+NlmQDKZbJVOOrqDWJQIkAw==
