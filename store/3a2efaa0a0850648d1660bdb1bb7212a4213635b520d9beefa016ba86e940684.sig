entry entropic-bound-paper-2026-12 pRSVzdVpEFgTgKRPr1CAICyjhwCigJ/9dtRbLq7AoKvPZHLmZ+Y4iQBsfODHRYs2MUerPz/dt+bomUxCaD/DDQ==
