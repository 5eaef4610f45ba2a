alias entropic-bound-2026-12-07-session cLPYczRQ+H42vtv5HRaUS9ft1qIb7uNtUTaEqPx6s+TfE8QShHnsEsx5R9iLhr9Hbm35RW+VKJcEpkrhviC/Cw==
