alias entropic-bound-migration-2026-12-rules m6NC/N/FKcMi5RqX42Un2qMxj2eX7kFerFg1tNAbaUh/wCAvh/xt/Y8PRRwLMqMS1CEb0TYpbuBXuhgb5RnJCQ==
