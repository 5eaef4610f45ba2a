alias entropic-bound-migration-2026-12-rules 9B9HmWNnnLrqA2xmivTc2qQPycQFMp50QSRfDP4Mr/gSBDGykWS/p/k+LKpLKH8bkuNcBK0V4Vc8D8qIcmyvAQ==
