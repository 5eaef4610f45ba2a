alias entropic-bound-migration-2026-12-rules pdXpNXMOgAL6eBIISTp7zqKXIeh+tmHaBIXAyhPLJ/lAUAU7Zv3+uVammJgf+Pcorouy2PuvOmUWWzkd+PjXDA==
