alias entropic-bound-migration-2026-12-rules ZZ+TI7Z+5M3vYWJYhTfpUq1PJRs/PdOR4Ny9NoSpEJfYhq46gna6nIW/xQekIVrM0yxJCcHkIhPGUyXnRmwpDg==
