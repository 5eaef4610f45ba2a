entry entropic-bound-paper-2026-12 lIK9lx1/++5LBBgNps9LaVWzbH3NwY7DBnnYOq61WM5OcSOyvpbp03qf/d1G91EouuxMFvMC6MT1BmcNN1B8DA==
