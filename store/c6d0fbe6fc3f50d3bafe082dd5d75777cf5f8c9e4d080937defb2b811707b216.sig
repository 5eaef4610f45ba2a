entry entropic-bound-paper-2026-12 23yMYmwBJ+O0KRUNGZrcupMdC6UhZwJv9QTNsPWi4MDwT46bS+mS3cRBp+k7alUjxp/9+Jn6EiXchBZh18AuAQ==
