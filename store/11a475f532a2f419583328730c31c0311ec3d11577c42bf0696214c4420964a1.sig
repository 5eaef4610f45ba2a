alias entropic-bound-migration-2026-12-rules Fm7lwtyvhDpY2Aa9byhovud3zHAmDuqzM5ul2rPvlt+/MWa85XtM+Wa+qikkl3UCgCRc29CC2w/0o8Zs3chrCw==
