alias entropic-bound-migration-2026-12-rules ln9s2BMK4uNjbgml5d5kAatSl1mBODQwXblUgA/WHknDzLyjULcKD+4lS69st65+dlmSnYeEyWU+YkcNchNHCg==
