alias entropic-bound-2026-12-07-session IRk8l4eSSBkLEeg658gr3z7rn/odaSztbVVDCtzT6jw/Kwrl+3x3ZNBdvgA99PiIrcuWS+9VUh1hlTmEvE8HBA==
