entry entropic-bound-paper-2026-12 9ches3lEquCZXKG/F8+v1h+f+5JIbQh2vvPTRZhmSfrXSAhH0ANUei/+A0wxyShpp0yGkDKS5bTG1wXFkSzeBw==
