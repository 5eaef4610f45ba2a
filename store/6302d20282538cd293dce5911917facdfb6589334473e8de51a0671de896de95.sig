alias entropic-bound-migration-2026-12-e6 +GXd5Bc0Q+z/hxcaoXsTE2Beg1FXQRE0simSlJ+J/Hcd6hpmYoMMeQ8r4CZg+tZ6e2ioDdtexngEF0vpCmDDCQ==
