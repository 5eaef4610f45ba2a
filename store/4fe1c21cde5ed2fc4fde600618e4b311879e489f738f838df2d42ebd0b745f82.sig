alias entropic-bound-2026-12-07-session VkuDIWsuA+Yb7eyrqqTVBE6nhe2swIA2Of+1NDblXJEt4skh4e+DUbmk/MnkEg7QELbqUQu1liEiqkh2aMy1Cg==
