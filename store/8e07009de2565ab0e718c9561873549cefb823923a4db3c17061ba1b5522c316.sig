alias entropic-bound-paper-2026-12 U+IoCBQTeF/P1TQe/Hb4IfUdQshb24h1q06MD4rLahG2fzW8AX/I7OGr9R90eoQ0We/ht1ZlaYsdXgA6vWzZAw==
