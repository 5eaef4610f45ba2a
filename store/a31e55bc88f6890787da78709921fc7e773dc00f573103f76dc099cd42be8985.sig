alias entropic-bound-migration-2026-12-rules DF7XpKECetCMH9wwFcomCO5HR7/ubSsI/55HIPEMduwWEyEi5vXtpd44ZBK04DLX+uaQw9LJgZqilAuAw/PyBg==
