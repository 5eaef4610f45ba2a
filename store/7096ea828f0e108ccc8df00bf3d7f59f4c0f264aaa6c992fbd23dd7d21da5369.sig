alias entropic-bound-2026-12-07-session gFO+q4nLG2Cq5uKTJ2YKTVEoL0+OTBcjMkS+5NlZyR3/gw91vp6s6Buvw03wlgAKN2LWUAJwLAQtYCsNii30AQ==
