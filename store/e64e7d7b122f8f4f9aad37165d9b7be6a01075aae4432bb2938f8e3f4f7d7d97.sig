alias entropic-bound-migration-2026-12-rules YZ4/QKbYf/ammo0UKUMk1p60kWR96gEXMwCZeV/nSbdBq538FJBA3VS0MFc8NnvQB44amibfZN+g65ehaeRxCQ==
