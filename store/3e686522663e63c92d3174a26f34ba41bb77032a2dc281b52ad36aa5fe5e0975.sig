alias entropic-bound-migration-2026-12-rules lDJ3FoyV4Woq4ZT+xhQL4FqGB97jyT2kdMfng8+MEHv4l0c/SlDDHLtV51qLEk/mm0hY40JRbHXhTazxNru9Ag==
