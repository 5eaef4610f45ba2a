alias entropic-bound-2026-12-07-session 85bgvuQzxmgiOIygD3eLl3ckx3YF+OTXKC6a7otJfdqYWFt/jh+zl5pybcoT4rvGCO3D/4YM72RaCHBGd3esDg==
