alias entropic-bound-migration-2026-12-rules OVWF2fLbA8g4+oynbX2MYiPPpLRVf+Wd8yRzim3gFn/K9YjIUgD7vK+YqSmKFFfBKsWFqaeICA31o+tPFt4LBg==
