alias entropic-bound-2026-12-07-session xIMsS1lWV6KmCtES0an2VCi0o19AFMyH51yxno536JA1km2R9o3ntYkc/Cl+d58h/VEsMfcn4BtdDaG/oAcxDw==
