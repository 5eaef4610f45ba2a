alias entropic-bound-migration-2026-12-rules pxDxPU/F+YUrMi6us3firgRxYNm/ILVwb23/M5C+kiEIMsvYVf3aQ2ckiJ47tJPGng6FAhvHDcm2NCP+NJK5BQ==
