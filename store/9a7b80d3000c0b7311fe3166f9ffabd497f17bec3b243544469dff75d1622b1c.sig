entry entropic-bound-paper-2026-12 +JlUm76CQ6TvVndP9LaEtvo+lhhKqfTyoOPFKwipOiAey++8pVXgVTt684BD4o0aulqG6MiP1sG8RSQ8GGEFCA==
