alias entropic-bound-migration-2026-12-rules XrSDI/Vy+IPj4uf5NWT84ElnfH+eEQFm00QDVCr8NugUuQJdSRCBfdUEMe1eOxq8JhY6PvfpPKHm/SJfe+fSBg==
