alias entropic-bound-2026-12-07-session rWUts/7EWIxpz2bUisLxB/zvCqI8wC2lR0CZojp90//ExESIzlGtm1DrdUHcHgsU+DVMM/jCWcOUUc3XDiY4AQ==
