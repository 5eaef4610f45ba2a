entry entropic-bound-2026-12-07-session AsJvkEXyMtVqgUFb4z6TAzgbTqqwI9tIk+gczCFcwDcmeh9FXnpp+BLLPgw8tRMD49d5/xiAs/aCPkJKoPzYDQ==
