alias entropic-bound-paper-2026-12 ykxPhtm+YIUbZROnJY40obg/oixsGEvSVts8pwmXI+bs6CwcEXWt9dh0/fyVSyI6RcFcxicWLmBFkO4iTr9vDA==
