alias entropic-bound-migration-2026-12-rules Aa4dJR3zX60eRVcc/0rf1WaCAde2xsU0+VniM82ZcKZ/tj9fPC34jPhnIsuJe2lrZsujwEbAM3gd9/5b8jesBg==
