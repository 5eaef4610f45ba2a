alias entropic-bound-2026-12-07-session hXwocNSCJ1+RjXv+2mljYLvpQDNiQaUsSKBFegkm+/jpr8k1mzoxJJbL2nIVXgHmNFGXKH9Se61UDmXmdlpSDw==
