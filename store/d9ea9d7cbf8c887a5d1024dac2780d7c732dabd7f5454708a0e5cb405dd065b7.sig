alias entropic-bound-migration-2026-12-e6 UvKYSfiOciJW/cFcE/UtpQf6tA2cwf85OvynvhtKzAYF5okzbAVdWmcQslEVF3lv4O4G+BxhTrO5XTS//KrMCg==
