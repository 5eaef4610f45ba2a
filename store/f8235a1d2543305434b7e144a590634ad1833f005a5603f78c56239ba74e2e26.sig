alias entropic-bound-2026-12-07-session +U+bZkZZd0Cbk1gpnssc71NoUr+5MXgAC+MwK/2BlcGZaOS2YNjgL0CE+tbnqR76aHfSzvisQxPSzvuCCLNJDg==
