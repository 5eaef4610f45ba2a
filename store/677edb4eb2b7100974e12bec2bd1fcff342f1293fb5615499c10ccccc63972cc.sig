alias entropic-bound-2026-12-07-session CQblBCJehN/iWsC3WdyBFwBbs+LN2+KOPTxG55Wm2SVSPME0ntojk/DyWlAxwr4hOEHr8ixKGujKqJRUs2J9CA==
