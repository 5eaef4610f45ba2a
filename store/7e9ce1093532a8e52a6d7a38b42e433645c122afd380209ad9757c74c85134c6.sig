alias entropic-bound-2026-12-07-session K2Bw4+fjWI1cQTEwI1BqwiE+cPz8wW/GqHPUpbQJiSMaqlpQIEinulaiNSO/U6a90xRRrIlX8gGJ8hobGVHUAw==
