alias entropic-bound-migration-2026-12-rules htgIhURHtpAQ44wBLPVL+At2QKWK9txi/3k5iitCDyPWcH/l4mWlhZXn7QevMUds7mkPdX8N7mMAX/QxrAL/Aw==
