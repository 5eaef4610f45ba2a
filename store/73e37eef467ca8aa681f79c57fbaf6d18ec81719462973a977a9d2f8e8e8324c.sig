alias entropic-bound-2026-12-07-session ut1R8O+s4Nhy6LY+E6zK1xMun8iwneY9wkckU63ZrDbeP8HTdsADLOfKHXnjn9kLfp7g4D/cROYd+q5W1VnUDQ==
