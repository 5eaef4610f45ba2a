alias entropic-bound-2026-12-07-session b4MC+jCjycOpkS0i4vmQT/ckITYuPqsB1QKRgVUMl3steoV/jImaRG07jDkyHhKgbDhGT0K5nT+zZbSowAbGBw==
