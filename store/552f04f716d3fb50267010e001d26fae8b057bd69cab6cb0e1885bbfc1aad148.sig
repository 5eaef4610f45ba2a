entry entropic-bound-2026-12-07-session LlOhcP4a2tY0fE5sYjphZ/d1Q2J+4/vRvYM2W8rWstwMKfLseyp1VAoghI3mbMTZaq/VMgWPEpewNkVNOUqrBg==
