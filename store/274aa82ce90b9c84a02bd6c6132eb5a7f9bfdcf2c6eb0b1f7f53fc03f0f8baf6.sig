alias entropic-bound-2026-12-07-session NbHkZwdA/Af+OI72zo1w22M+8/kMw8Xfmha1U3ji3pBemALMcC/AqxrGLUIlVTczZ6kw328lM1Z2kZNbBx72Bg==
