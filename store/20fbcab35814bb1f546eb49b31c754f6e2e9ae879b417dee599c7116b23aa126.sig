alias entropic-bound-migration-2026-12-rules 71jjYk1spd4viWDUMpDHucTicKBMCDi8gsywt+iW8f+y+doubVk32GO/FMhvlKOoOkFt1mtiwx02VKPsqTDpBg==
