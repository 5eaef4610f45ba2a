entry entropic-bound-paper-2026-12 fSpi1yMArpp0iD+EAy/3CJKJq6YFNN3nVmLh49EX/gNmZx/yDtsTBsn+Hzm0knYhyGeZj72++W/y2JzFkz/fAw==
