alias entropic-bound-2026-12-07-session OyjxhMWW3+f9PQQEIqFVnJmta/3SCt2Ry4NLLSojhE3d2O45/f9A/nljC135Ac9F2Dae2iVOFW9NShWwuSsYBQ==
