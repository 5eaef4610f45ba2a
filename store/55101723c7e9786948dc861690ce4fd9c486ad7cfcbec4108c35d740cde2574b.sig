alias entropic-bound-paper-2026-12 A0+iRLyOdsJTAnYUABX64dUReLtjIpnWcyJ2D4+0q4IQKiP/F7gjzYfXNwiDFLJ7X2LuR/sv0uEr3Ll1ZvAhCQ==
