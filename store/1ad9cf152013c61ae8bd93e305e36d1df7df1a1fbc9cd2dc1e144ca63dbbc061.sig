alias entropic-bound-migration-2026-12-rules 53NwmtX/+6OnGPQL/EkSv31HVHmCLG41eRKOxiZGGQgpDDx0t08IPbkG+Rh/MDcL7UJrg6aqqFznLvlXDwznAA==
