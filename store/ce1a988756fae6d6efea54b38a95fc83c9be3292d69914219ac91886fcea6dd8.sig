alias entropic-bound-2026-12-07-session 9/oSBDRP4BeRq8jetaS8Tn0Xp88X/8bOrwAjs1WLEPU/z1FjgZUl+h+gTcVymXoudtPQnR7yKfSdQLiGLaeGDw==
