alias entropic-bound-2026-12-07-session DZnqI88BiEX+peY//jTsFdbWBmSrFzTwqPxNC70h6/iJXd1R022izHzLPXy+l0aNfcDnG1AGEktimXFQkQclCw==
