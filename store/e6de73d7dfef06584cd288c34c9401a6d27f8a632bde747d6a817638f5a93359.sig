entry entropic-bound-paper-2026-12 /DAXOL4N0PGCfhS6GY0BdBsyO2tdkPpLgWuHZt2LAuHvvpNk/mAXziMPQad6R/jvyMkvLhxaVil+ekxcl3qNBA==
