alias entropic-bound-2026-12-07-session tQ/PoI5XsN3i7gKtZzkLG/0wxdjMxCz2okYcs7vdVBPLm3AzZGX3HnLGRc0UYNz0W6FCWq/T/TEIbewvzhADAQ==
