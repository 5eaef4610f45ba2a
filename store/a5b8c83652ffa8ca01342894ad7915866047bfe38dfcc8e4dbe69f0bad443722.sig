alias entropic-bound-migration-2026-12-e6 XezJm6fc5uuzvA+CoIIwc2OWSGY1LFy3oxyg4zN7yfpymxLwtAr2scX+G4rDc+fSUgn1C78M9w/J/Ph6jGH+Bw==
